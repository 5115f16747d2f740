//! 集 (波波攒) solver (`HELP`; docs/ji.md has the model and the proofs).
//! R > 0 asks for V_R, R = 0 with p > 0 for the discounted game's value, R = 0
//! with p = 0 for the unlimited game's (not always lim V_k). Exit 3 prints no
//! number outside what is proved. No clock: work is counted, so an input gives
//! the same bytes on every machine.
//!
//! The file, top-down: input (`parse_problem`, `keep_units`); model (`Game`,
//! `Layer`); rules (`next`, `round`, `predecessors`, `build_stage`); `mod
//! proof`, the only trusted code (`limit_wins`, `proves`, `carried`);
//! iteration (`solve_table`, `iterate`, `sweep`); stage games (`Stage`);
//! certify, the untrusted search (`Search`, `certify`, `certify_layers`,
//! `Certificate`, the `Schedule` of passes, Newton's `newton_values`, B's best
//! reply `ReplyProcess`, dense or by `estimate`); output (`answer`, `Printer`,
//! `open_states`, shown strategies); command line (`HELP`, `Options`); then
//! the shared blocks (copies of src/shared/*.rs). `#[inline(never)]` and `each`
//! keep the compile fast (bench/RESULTS.md, with the measured constants).

use std::ffi::OsString;
use std::fmt;
use std::io::{self, Read, Write};

const BIN: &str = "ji_solver";
/// Largest C tabulated: (C+1)^2 values per table.
const MAX_CAP: i64 = 1000;
/// Largest number of skills solved (a stage game is up to n x n).
const MAX_SKILLS: usize = 64;

// ---- input ------------------------------------------------------------------

/// Why a run did not end with exit 0 (docs/contract.md).
#[derive(Debug, PartialEq)]
pub enum Failure {
    BadArgument(String),
    /// The 1-based line and what is wrong.
    BadInput {
        line: usize,
        what: String,
    },
    /// Off the layout under `--strict` (column: characters from 1).
    BadLayout {
        line: usize,
        column: usize,
        what: String,
    },
    /// Not certified (the best values are printed), or too large.
    NoExactAnswer(String),
    UnreadableInput(String),
    UnwritableOutput(String),
}

impl Failure {
    /// The process exit code: the one place that maps failures to codes.
    fn exit_code(&self) -> i32 {
        match self {
            Failure::BadArgument(_) | Failure::BadInput { .. } | Failure::BadLayout { .. } => 2,
            Failure::NoExactAnswer(_) => 3,
            Failure::UnreadableInput(_) | Failure::UnwritableOutput(_) => 1,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::BadInput { line, what } => write!(f, "line {line}: {what}"),
            Failure::BadLayout { line, column, what } => {
                write!(f, "line {line} column {column}: {what}")
            }
            Failure::BadArgument(what) | Failure::NoExactAnswer(what) => f.write_str(what),
            Failure::UnreadableInput(e) => write!(f, "cannot read the input: {e}"),
            Failure::UnwritableOutput(e) => write!(f, "cannot write the output: {e}"),
        }
    }
}

fn bad<T>(line: usize, what: String) -> Result<T, Failure> {
    Err(Failure::BadInput { line, what })
}

/// Off the layout under `--strict` (the shared block's `strict` lexer).
fn bad_at<T>(line: usize, column: usize, what: String) -> Result<T, Failure> {
    Err(Failure::BadLayout { line, column, what })
}

fn unwritable(e: io::Error) -> Failure {
    Failure::UnwritableOutput(e.to_string())
}

/// A draw probability in percent: digits, at most one point, 0..=100.
fn parse_percent(text: &[u8]) -> Option<f64> {
    let digits = text.iter().filter(|c| c.is_ascii_digit()).count();
    let points = text.iter().filter(|&&c| c == b'.').count();
    if digits == 0 || points > 1 || digits + points != text.len() {
        return None;
    }
    std::str::from_utf8(text).ok()?.parse::<f64>().ok()
}

/// 1 - p/100 from p's digits exactly: [floor, ceil] of it times 2^60.
#[inline(never)]
fn keep_units(text: &[u8]) -> [i128; 2] {
    let point = text.iter().position(|&c| c == b'.').unwrap_or(text.len());
    let digits: Vec<u8> = text.iter().filter(|c| c.is_ascii_digit()).map(|c| c - b'0').collect();
    // p/100: the point two places to the left; its whole part is 0 or 1.
    let whole = point.saturating_sub(2);
    let mut fraction = vec![0u8; 2usize.saturating_sub(point)];
    fraction.extend_from_slice(&digits[whole..]);
    let mut units = digits[..whole].iter().fold(0u64, |u, &d| u * 10 + u64::from(d));
    for _ in 0..STRATEGY_BITS {
        let mut carry = 0;
        for d in fraction.iter_mut().rev() {
            let v = *d * 2 + carry;
            (*d, carry) = (v % 10, v / 10);
        }
        units = units * 2 + u64::from(carry);
    }
    let (units, rest) = (i128::from(units), i128::from(fraction.iter().any(|&d| d > 0)));
    [(1 << STRATEGY_BITS) - units - rest, (1 << STRATEGY_BITS) - units]
}

/// The most digits after the point of p that `--strict` accepts.
const PERCENT_DECIMALS: usize = 3;

/// With --strict: no leading zero, at most PERCENT_DECIMALS after a point.
fn plain_percent(text: &[u8]) -> bool {
    let (whole, fraction) = match text.iter().position(|&c| c == b'.') {
        Some(dot) => (&text[..dot], Some(&text[dot + 1..])),
        None => (text, None),
    };
    let whole_ok = !whole.is_empty() && (whole.len() == 1 || whole[0] != b'0');
    let fraction_ok = fraction.map_or(true, |f| (1..=PERCENT_DECIMALS).contains(&f.len()));
    whole_ok && fraction_ok
}

/// The whole input, checked.
struct Problem<'a> {
    variant: Variant<'a>,
    /// R (0: none), 1 - p/100 (and exactly: `keep_units`) and C = max req.
    rounds: u64,
    keep: f64,
    keep_units: [i128; 2],
    cap: i64,
    queries: Vec<Query>,
}

/// One query: the counts of A and B, and the lost skills (variant bits).
struct Query {
    a: usize,
    b: usize,
    lost: [u64; 2],
}

/// The keyword of a query's lost sets (where the next x or the end is).
const LOST: &[u8] = b"lost";

/// Reads query t's `lost i a_1 .. j b_1 ..` if it follows: each a union of
/// taken lists.
#[inline(never)]
fn parse_lost(lx: &mut Lexer<'_>, v: &Variant<'_>, t: u64) -> Result<[u64; 2], Failure> {
    let mut lost = [0u64; 2];
    if lx.peek() != Some(LOST) {
        return Ok(lost);
    }
    lx.expect(&|| "`lost`".to_string())?;
    let n = v.skills.len();
    for (set, who) in lost.iter_mut().zip(["A", "B"]) {
        let ct = lx.expect(&|| format!("the count of {who}'s lost skills in query {t}"))?;
        let count = match parse_u64(ct.text) {
            Some(c) if c <= n as u64 => c,
            _ => {
                let what =
                    format!("query {t}: {who}'s lost count `{}` is not in 0..={n}", show(ct.text));
                return ct.fail(what);
            }
        };
        lx.plain_int(&ct, "lost count")?;
        for _ in 0..count {
            let nt = lx.expect(&|| format!("a skill {who} has lost in query {t}"))?;
            let x = known(v, &nt, &|| format!("query {t}: {who} has lost"))?;
            if *set >> x & 1 == 1 {
                return nt.fail(format!("query {t}: {who} has lost `{}` twice", show(nt.text)));
            }
            *set |= 1 << x;
        }
        // The union of the sets effects take that lie within it.
        let mut union = 0;
        for e in &v.lasting {
            let m = bits(&e.taken);
            if m & !*set == 0 {
                union |= m;
            }
        }
        if union != *set {
            let what = format!(
                "query {t}: no lasting effects take exactly the skills {who} has lost (a lost \
                 set is a union of taken lists)"
            );
            return ct.fail(what);
        }
    }
    Ok(lost)
}

/// The skills `list` as bits (by the variant's index).
fn bits(list: &[u32]) -> u64 {
    let mut bits = 0;
    for &x in list {
        bits |= 1 << x;
    }
    bits
}

/// `f` of each of 0..n (by a `dyn` closure: one compiled copy per type).
fn each<T>(n: usize, f: &dyn Fn(usize) -> T) -> Vec<T> {
    let mut all = Vec::with_capacity(n);
    for i in 0..n {
        all.push(f(i));
    }
    all
}

/// The i in 0..n where `f` holds (by a `dyn` closure, as `each`).
fn indices(n: usize, f: &dyn Fn(usize) -> bool) -> Vec<usize> {
    let mut all = Vec::new();
    for i in 0..n {
        if f(i) {
            all.push(i);
        }
    }
    all
}

/// Reads the problem (`strict`: one record per line, as in `HELP`).
#[inline(never)]
fn parse_problem(input: &[u8], strict: bool) -> Result<Problem<'_>, Failure> {
    let mut lx = Lexer::new(input);
    lx.strict = strict;
    lx.lasting = true;
    let variant = parse_variant(&mut lx)?;
    let cap = variant.skills.iter().map(|s| s.req).max().unwrap_or(0);
    let rt = lx.expect(&|| "the round limit R".to_string())?;
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
    lx.plain_int(&rt, "round limit R")?;
    let pt = lx.expect(&|| "the draw probability p".to_string())?;
    let percent = match parse_percent(pt.text) {
        Some(p) if (0.0..=100.0).contains(&p) => p,
        Some(_) => {
            return pt
                .fail(format!("draw probability p = {} is out of range (0..=100)", show(pt.text)))
        }
        None => {
            return pt.fail(format!(
                "draw probability p `{}` is not a decimal number of percent",
                show(pt.text)
            ))
        }
    };
    if lx.strict && !plain_percent(pt.text) {
        // The statement's p: a validator must refuse `2.5000` and `02.5`.
        let at = pt.text.as_ptr() as usize - input.as_ptr() as usize;
        let what = format!(
            "draw probability p `{}`: digits without a leading zero, and at most {} after the point",
            show(pt.text),
            PERCENT_DECIMALS
        );
        return bad_at(pt.line, lx.column(at), what);
    }
    lx.end_record(false)?;
    let qt = lx.expect(&|| "the number of queries q".to_string())?;
    lx.plain_int(&qt, "number of queries q")?;
    let q = match parse_u64(qt.text) {
        Some(q) => q,
        None => {
            return qt.fail(format!("expected the number of queries q, found `{}`", show(qt.text)))
        }
    };
    lx.end_record(q == 0)?;
    let mut queries = Vec::new();
    for t in 1..=q {
        let mut pair = [0usize; 2];
        for (slot, who) in pair.iter_mut().zip(["x", "y"]) {
            let tok = lx.expect(&|| format!("{who} of query {t} of {q}"))?;
            lx.plain_int(&tok, who)?;
            match parse_u64(tok.text) {
                Some(v) if v <= cap as u64 => *slot = v as usize,
                _ => {
                    let what = if tok.text.iter().all(u8::is_ascii_digit) {
                        format!("= {} is out of range", show(tok.text))
                    } else {
                        format!("`{}` is not a count of 集", show(tok.text))
                    };
                    return tok.fail(format!("query {t}: {who} {what} (0..={cap})"));
                }
            }
        }
        let lost = parse_lost(&mut lx, &variant, t)?;
        lx.end_record(t == q)?;
        queries.push(Query { a: pair[0], b: pair[1], lost });
    }
    // Reading: like `cin`, what follows the last query is not read.
    let (keep, keep_units) = (1.0 - percent / 100.0, keep_units(pt.text));
    Ok(Problem { variant, rounds, keep, keep_units, cap, queries })
}

// ---- model ------------------------------------------------------------------

/// The game: skills sorted by req (the usable ones a prefix); a state
/// s = layer * (C+1)^2 + a * (C+1) + b, a layer a lost-set pair.
#[derive(Clone, Default)]
struct Game {
    n: usize,
    /// C, the cap on counts.
    cap: usize,
    /// delta of each skill, in req order.
    delta: Vec<i64>,
    /// outcome[i * n + j]: +1 if skill i beats skill j, -1 if j beats i.
    outcome: Vec<i8>,
    /// 1 - p/100, and exactly within keep_units / 2^60 (1 when unlimited).
    keep: f64,
    keep_units: [i128; 2],
    /// The variant's index of each skill.
    order: Vec<usize>,
    /// The lost-set pairs reachable from the queried ones and their mirrors.
    layers: Vec<Layer>,
    /// Unlimited game: per state, 0, or when A's limit-sure win joined.
    won: Vec<u32>,
    /// Some layers only (`part`): per whole-game state, where rounds leaving
    /// them end (proved L; the midpoint for strategies).
    outside_lower: Vec<i128>,
    outside: Vec<f64>,
}

/// One lost-set pair (A's, B's) and what it leaves each side.
#[derive(Clone, Default)]
struct Layer {
    /// Per side: the lost bits, the kept skills (req order), usable per count.
    lost: [u64; 2],
    kept: [Vec<usize>; 2],
    usable: [Vec<usize>; 2],
    /// The layer after a round that goes on, per pair (A's kept i, B's j).
    then: Vec<usize>,
    mirror: usize,
}

/// Most lost-set pairs built, by measured cost (bench/RESULTS.md).
const MAX_LAYERS: usize = 4096;

impl Game {
    /// The game over the lost-set pairs reachable from `lost` and mirrors.
    #[inline(never)]
    fn new(v: &Variant<'_>, cap: i64, keep: f64, lost: &[[u64; 2]]) -> Option<Game> {
        let n = v.skills.len();
        // By req, stable (n <= MAX_SKILLS: by insertion).
        let mut order: Vec<usize> = Vec::with_capacity(n);
        for i in 0..n {
            let req = v.skills[i].req;
            order.insert(order.partition_point(|&k| v.skills[k].req <= req), i);
        }
        let wins = |i: usize, j: usize| i8::from(v.beats(i as u32, j as u32));
        let (mut outcome, mut delta) = (Vec::with_capacity(n * n), Vec::with_capacity(n));
        for &i in &order {
            for &j in &order {
                outcome.push(wins(i, j) - wins(j, i));
            }
            delta.push(v.skills[i].delta);
        }
        let cap = cap as usize;
        let keep_units = [(keep * (1u64 << STRATEGY_BITS) as f64) as i128; 2];
        let mut game = Game { n, cap, delta, outcome, keep, keep_units, order, ..Game::default() };
        let takes = |x: usize, y: usize| bits(v.takes(x as u32, y as u32));
        let mut index: Vec<([u64; 2], usize)> = Vec::new();
        let mut layer_of = |game: &mut Game, pair: [u64; 2]| match index.binary_search(&(pair, 0)) {
            Ok(k) | Err(k) if index.get(k).map(|e| e.0) == Some(pair) => index[k].1,
            Ok(k) | Err(k) => {
                index.insert(k, (pair, game.layers.len()));
                game.layers.push(game.layer(v, pair));
                game.layers.len() - 1
            }
        };
        let mut at = 0;
        // No query: the table of nothing lost (so that there is a game).
        let seeds = if lost.is_empty() { &[[0, 0]][..] } else { lost };
        for &[a, b] in seeds {
            layer_of(&mut game, [a, b]);
            layer_of(&mut game, [b, a]);
        }
        while at < game.layers.len() {
            if game.layers.len() > MAX_LAYERS {
                return None;
            }
            let [la, lb] = game.layers[at].lost;
            let (ka, kb) = (game.layers[at].kept[0].clone(), game.layers[at].kept[1].clone());
            let mut then = Vec::with_capacity(ka.len() * kb.len());
            for &i in &ka {
                for &j in &kb {
                    let (x, y) = (game.order[i], game.order[j]);
                    let pair = [la | takes(y, x), lb | takes(x, y)];
                    then.push(if pair == [la, lb] { at } else { layer_of(&mut game, pair) });
                }
            }
            game.layers[at].then = then;
            at += 1;
        }
        for l in 0..game.layers.len() {
            let [a, b] = game.layers[l].lost;
            game.layers[l].mirror = layer_of(&mut game, [b, a]);
        }
        Some(game)
    }

    /// The layer of lost sets `lost` (its `then` and `mirror` left empty).
    fn layer(&self, v: &Variant<'_>, lost: [u64; 2]) -> Layer {
        let side = |l: u64| -> (Vec<usize>, Vec<usize>) {
            let kept = indices(self.n, &|i| l >> self.order[i] & 1 == 0);
            let req = |i: usize| v.skills[self.order[i]].req;
            let usable = each(self.cap + 1, &|c| kept.partition_point(|&i| req(i) <= c as i64));
            (kept, usable)
        };
        let ((ka, ua), (kb, ub)) = (side(lost[0]), side(lost[1]));
        Layer { lost, kept: [ka, kb], usable: [ua, ub], then: Vec::new(), mirror: 0 }
    }

    fn width(&self) -> usize {
        self.cap + 1
    }

    fn states(&self) -> usize {
        self.layers.len() * self.width() * self.width()
    }

    fn at(&self, s: usize) -> (usize, usize, usize) {
        let w = self.width();
        (s / (w * w), s / w % w, s % w)
    }

    /// The state (B's count, A's count) with the lost sets swapped.
    fn mirror(&self, s: usize) -> usize {
        let (l, a, b) = self.at(s);
        let w = self.width();
        (self.layers[l].mirror * w + b) * w + a
    }

    fn moves(&self, s: usize) -> (usize, usize) {
        let (l, a, b) = self.at(s);
        let layer = &self.layers[l];
        (layer.usable[0][a], layer.usable[1][b])
    }

    /// Where a player cannot move. Reading (the statement is silent; its
    /// referee: "a variant with no req-0 skill gives ILLEGAL AB 1"): who cannot
    /// move loses; neither can: a draw.
    fn decided(&self, s: usize) -> Option<f64> {
        match self.moves(s) {
            (0, 0) => Some(0.0),
            (0, _) => Some(-1.0),
            (_, 0) => Some(1.0),
            _ => None,
        }
    }

    /// +1 where A wins limit-surely, -1 where B does (unlimited game).
    fn settled(&self, s: usize) -> Option<f64> {
        let won = |s: usize| self.won.get(s) > Some(&0);
        match (won(s), won(self.mirror(s))) {
            (true, _) => Some(1.0),
            (_, true) => Some(-1.0),
            _ => None,
        }
    }

    /// The value at s where known without solving.
    fn known(&self, s: usize) -> Option<f64> {
        self.settled(s).or_else(|| self.decided(s))
    }

    /// `v` lowered by `by`, the known states held.
    fn lowered(&self, v: &[f64], by: f64) -> Vec<f64> {
        each(v.len(), &|s| self.known(s).unwrap_or(v[s] - by))
    }
}

// ---- rules ------------------------------------------------------------------

impl Game {
    /// "After every round each count becomes min(count + delta, C)" (never
    /// negative: req >= -delta).
    fn next(&self, c: usize, i: usize) -> usize {
        (c as i64).saturating_add(self.delta[i]).clamp(0, self.cap as i64) as usize
    }

    /// A's kept move i against B's j at s: +-1 if one beats the other, else 0
    /// and the next state (deltas, and lasting effects' takes).
    fn round(&self, s: usize, i: usize, j: usize) -> (i8, usize) {
        let (l, a, b) = self.at(s);
        let layer = &self.layers[l];
        let (x, y) = (layer.kept[0][i], layer.kept[1][j]);
        let o = self.outcome[x * self.n + y];
        let then = layer.then[i * layer.kept[1].len() + j];
        let w = self.width();
        (o, (then * w + self.next(a, x)) * w + self.next(b, y))
    }

    /// Per layer, the (layer, A's kept i, B's kept j) of rounds into it.
    fn entries(&self) -> Vec<Vec<[usize; 3]>> {
        let mut into = vec![Vec::new(); self.layers.len()];
        for (l, layer) in self.layers.iter().enumerate() {
            let cols = layer.kept[1].len();
            for (k, &t) in layer.then.iter().enumerate() {
                let (i, j) = (k / cols, k % cols);
                if self.outcome[layer.kept[0][i] * self.n + layer.kept[1][j]] == 0 {
                    into[t].push([l, i, j]);
                }
            }
        }
        into
    }

    /// Calls `found` with each state a round that goes on leads from to t.
    #[inline(never)]
    fn predecessors(
        &self,
        t: usize,
        into: &[Vec<[usize; 3]>],
        work: &mut u64,
        found: &mut dyn FnMut(usize),
    ) {
        let (lt, a, b) = self.at(t);
        let cap = self.cap as i64;
        // The counts c with min(max(c + delta, 0), C) = to: an interval.
        let before = |to: usize, delta: i64| {
            let to = to as i64;
            let lo = if to == 0 { 0 } else { to.saturating_sub(delta) };
            let hi = if to == cap { cap } else { to.saturating_sub(delta) };
            lo.max(0) as usize..(hi.min(cap) + 1).max(0) as usize
        };
        let w = self.width();
        for &[l, i, j] in &into[lt] {
            let layer = &self.layers[l];
            let (x, y) = (layer.kept[0][i], layer.kept[1][j]);
            for c in before(a, self.delta[x]).filter(|&c| layer.usable[0][c] > i) {
                for d in before(b, self.delta[y]).filter(|&d| layer.usable[1][d] > j) {
                    *work += 1;
                    found((l * w + c) * w + d);
                }
            }
        }
    }

    /// The game of the layers `members` alone (rounds leaving them end).
    #[inline(never)]
    fn part(&self, members: &[usize], outside_lower: Vec<i128>, outside: Vec<f64>) -> Game {
        let size = self.width() * self.width();
        let local = |l: usize| members.iter().position(|&m| m == l);
        let mut layers = each(members.len(), &|k| self.layers[members[k]].clone());
        for layer in &mut layers {
            layer.then.iter_mut().for_each(|t| *t = local(*t).unwrap_or(members.len() + *t));
            layer.mirror = local(layer.mirror).unwrap_or(0);
        }
        let mut won: Vec<u32> = Vec::new();
        for &m in members.iter().filter(|_| !self.won.is_empty()) {
            won.extend_from_slice(&self.won[m * size..(m + 1) * size]);
        }
        Game { layers, won, outside_lower, outside, ..self.clone() }
    }

    /// The stage game at s into `stage.m` on the values `next` one round on.
    fn build_stage(&self, s: usize, next: &[f64], stage: &mut Stage) -> StageGame {
        // "needs at least `req` 集": the usable skills, a prefix by req.
        if let Some(v) = self.decided(s) {
            return StageGame::Decided(v);
        }
        let (rows, cols) = self.moves(s);
        stage.m.clear();
        stage.work += (rows * cols + 32) as u64;
        // `round` unrolled: this is the hot loop of value iteration.
        let (l, a, b) = self.at(s);
        let (layer, w) = (&self.layers[l], self.width());
        let later = |to: usize| next.get(to).unwrap_or_else(|| &self.outside[to - next.len()]);
        for (i, &x) in layer.kept[0][..rows].iter().enumerate() {
            let (row, then) = (self.next(a, x), &layer.then[i * layer.kept[1].len()..]);
            for (j, &y) in layer.kept[1][..cols].iter().enumerate() {
                // "If one side's skill beats the other's, that side wins", else the
                // next round is played with probability 1 - p/100.
                let o = self.outcome[x * self.n + y];
                let to = (then[j] * w + row) * w + self.next(b, y);
                stage.m.push(if o != 0 { f64::from(o) } else { self.keep * later(to) });
            }
        }
        StageGame::Matrix { rows, cols }
    }
}

/// What `Game::build_stage` found at a state.
enum StageGame {
    /// A player cannot move: A's payoff (who cannot move loses).
    Decided(f64),
    /// The matrix in `Stage::m`: A's usable skills x B's.
    Matrix { rows: usize, cols: usize },
}

// ---- the proof (trusted): limit-sure wins and the exact check ---------------

/// The only code that decides what is proved (docs/ji.md, "The
/// certificate"); it exports what the rest uses and no more.
mod proof {
    use super::{each, indices, Game, WORK};

    /// x in units of 2^-STRATEGY_BITS, phi of 2^-GRID_BITS.
    pub(super) const STRATEGY_BITS: u32 = 60;
    const GRID_BITS: u32 = 120;
    pub(super) const GRID_ONE: i128 = 1 << GRID_BITS;

    /// A's strategy at a state: u / 2^60 per usable skill, summing to 1.
    pub(super) type Dyadic = Vec<u64>;

    // The exact check, A playing x (why it proves phi <= V: docs/ji.md, "The
    // certificate"): (1) |phi| <= 1, phi <= the value where known; (2)
    // elsewhere x(s) sums to 2^60 and phi(s) <= sum_i x_i (o_ij if one wins,
    // else carried(phi(next))) for every reply j; (3) phi <= 0 on Z (B can
    // stall forever). Integer sums: phi = hi * 2^60 + lo, each below 2^121.

    /// Whether `phi` (grid units) is proved below the value, A playing `x`.
    #[inline(never)]
    pub(super) fn proves(game: &Game, x: &[Dyadic], phi: &[i128]) -> bool {
        let ns = game.states();
        let one = 1i128 << STRATEGY_BITS;
        let split = |v: i128| (v >> STRATEGY_BITS, v & (one - 1));
        // (1), and A's strategies are distributions.
        for s in 0..ns {
            if phi[s].abs() > GRID_ONE {
                return false;
            }
            match game.known(s) {
                Some(v) if phi[s] > v as i128 * GRID_ONE => return false,
                Some(_) => {}
                None => {
                    let rows = game.moves(s).0;
                    let sum: i128 = x[s].iter().map(|&u| i128::from(u)).sum();
                    if x[s].len() != rows || sum != one {
                        return false;
                    }
                }
            }
        }
        // x(s)'s support against reply j: (weight, where it ends, next state).
        let played = |s: usize, j: usize| {
            x[s].iter().enumerate().filter(|e| *e.1 > 0).map(move |(i, &u)| {
                let (o, to) = game.round(s, i, j);
                (i128::from(u), game.ending(o, to), to)
            })
        };
        // (2)
        for s in (0..ns).filter(|&s| game.known(s).is_none()) {
            for j in 0..game.moves(s).1 {
                let (mut whole, mut part) = (0i128, 0i128);
                for (u, ends, to) in played(s, j) {
                    let (hi, lo) = split(ends.unwrap_or_else(|| game.carried(phi[to])));
                    whole += u * hi;
                    part += u * lo;
                }
                if phi[s] > whole + (part >> STRATEGY_BITS) {
                    return false;
                }
            }
        }
        // (3): Z, the largest fixed point from every state where play goes on.
        let mut z = each(ns, &|s| game.known(s).is_none());
        let mut shrunk = true;
        while shrunk {
            shrunk = false;
            for s in 0..ns {
                let stays = |j: usize| played(s, j).all(|(_, ends, to)| ends.is_none() && z[to]);
                if z[s] && !(0..game.moves(s).1).any(stays) {
                    z[s] = false;
                    shrunk = true;
                }
            }
        }
        (0..ns).all(|s| !z[s] || phi[s] <= 0)
    }

    impl Game {
        /// Where a round ends: A's value if one skill beats the other, or the
        /// proved bound past this game's layers; `None` if it goes on.
        pub(super) fn ending(&self, o: i8, to: usize) -> Option<i128> {
            let ns = self.states();
            match o {
                0 if to < ns => None,
                0 => Some(self.carried(self.outside_lower[to - ns])),
                o => Some(i128::from(o) * GRID_ONE),
            }
        }

        /// A round that goes on is worth floor(keep * phi(next)) at least (keep
        /// low for a gain, high for a loss): keep * hi + keep * lo / 2^60.
        pub(super) fn carried(&self, phi: i128) -> i128 {
            let keep = self.keep_units[usize::from(phi < 0)];
            keep * (phi >> STRATEGY_BITS)
                + ((keep * (phi & ((1 << STRATEGY_BITS) - 1))) >> STRATEGY_BITS)
        }
    }

    // Limit-sure wins: the largest Y where each state has a ladder towards
    // the states added before it (why: docs/ji.md, "Limit-sure wins").

    /// Per state 0, or the order A's limit-sure win joined X. Worklists: a
    /// state is looked at again when one it leads to joins X.
    #[inline(never)]
    pub(super) fn limit_wins(game: &Game, work: &mut u64) -> Vec<u32> {
        let ns = game.states();
        // Y: every state where A can move, shrunk until its ladders hold.
        let mut inside = each(ns, &|s| game.moves(s).0 > 0);
        let into = game.entries();
        loop {
            // X: the states of Y proved so far, numbered in the order added.
            let mut proved: Vec<u32> = vec![0; ns];
            let mut added = 0;
            let mut todo: Vec<usize> = Vec::new();
            for s in (0..ns).rev() {
                if inside[s] && game.moves(s).1 == 0 {
                    added += 1;
                    proved[s] = added;
                } else if inside[s] {
                    todo.push(s);
                }
            }
            let mut queued: Vec<bool> = inside.clone();
            // States of X whose predecessors are not yet looked at again.
            let mut joined = indices(ns, &|s| proved[s] > 0);
            loop {
                // Out of work: none settled (part of a fixpoint proves nothing).
                if *work > game.budget(WORK) {
                    return vec![0; ns];
                }
                if let Some(s) = todo.pop() {
                    queued[s] = false;
                    if proved[s] == 0 && game.has_ladder(s, &inside, &proved, work) {
                        added += 1;
                        proved[s] = added;
                        joined.push(s);
                    }
                    continue;
                }
                let t = match joined.pop() {
                    Some(t) => t,
                    None => break,
                };
                game.predecessors(t, &into, work, &mut |p| {
                    if inside[p] && proved[p] == 0 && !queued[p] {
                        queued[p] = true;
                        todo.push(p);
                    }
                });
            }
            let left = each(ns, &|s| proved[s] > 0);
            if left == inside {
                return proved;
            }
            inside = left;
        }
    }

    impl Game {
        /// Whether A has a ladder at s towards `proved` inside `inside`.
        #[inline(never)]
        fn has_ladder(&self, s: usize, inside: &[bool], proved: &[u32], work: &mut u64) -> bool {
            let (rows, cols) = self.moves(s);
            // Skill i against reply j: (B wins or the game leaves Y, A wins
            // or the game goes to a state proved before).
            let step = |i: usize, j: usize| match self.round(s, i, j) {
                (0, to) => (!inside[to], proved[to] > 0),
                (o, _) => (o < 0, o > 0),
            };
            let mut open = vec![true; cols];
            let mut climbed = vec![false; rows];
            loop {
                // The next level: unused skills safe against the replies still open.
                let safe = |i: usize| (0..cols).all(|j| !open[j] || !step(i, j).0);
                let level = indices(rows, &|i| !climbed[i] && safe(i));
                *work += (rows * cols) as u64;
                let mut answered = false;
                for (j, open) in open.iter_mut().enumerate() {
                    if *open && level.iter().any(|&i| step(i, j).1) {
                        *open = false;
                        answered = true;
                    }
                }
                if !open.contains(&true) {
                    return true;
                }
                if !answered {
                    return false;
                }
                for i in level {
                    climbed[i] = true;
                }
            }
        }
    }
}
use proof::{limit_wins, proves, Dyadic, GRID_ONE, STRATEGY_BITS};

// ---- iteration --------------------------------------------------------------

/// Sweeps before `certify` is first tried (then at every doubling); the
/// width needed at queried states (5e-8 with rounding).
const CERTIFY_FROM: u64 = 256;
const CERTIFIED: f64 = 0.98e-7;

struct Solution {
    /// Per state, what is proved of its value (the midpoint printed).
    bounds: Vec<Bounds>,
    /// The widest bounds a printed value may have.
    tolerance: f64,
    /// The values after the query's first round (`--strategy`).
    next: Vec<f64>,
    certificate: Option<Certificate>,
    /// Why the values are not certified.
    warning: Option<String>,
    /// The game solved (with its limit-sure wins).
    game: Game,
}

/// A value is proved in [lo, hi].
#[derive(Clone, Copy, Debug, PartialEq)]
struct Bounds {
    lo: f64,
    hi: f64,
}

impl Bounds {
    /// Everything a value can be.
    const ANY: Bounds = Bounds { lo: -1.0, hi: 1.0 };

    fn exact(v: f64) -> Bounds {
        Bounds { lo: v, hi: v }
    }

    /// `v` off by at most `error`, within [-1, 1].
    fn around(v: f64, error: f64) -> Bounds {
        Bounds { lo: (v - error).max(-1.0), hi: (v + error).min(1.0) }
    }

    fn within(self, o: Bounds) -> Bounds {
        Bounds { lo: self.lo.max(o.lo), hi: self.hi.min(o.hi) }
    }

    fn mid(self) -> f64 {
        0.5 * (self.lo + self.hi)
    }

    fn width(self) -> f64 {
        self.hi - self.lo
    }
}

/// A change per round this small is exact to 9 digits (R > 0, p > 0).
const CONVERGED: f64 = 1e-12;
/// A stage game solved only this close makes R > 0 and p > 0 not exact.
const STAGE_GAP: f64 = 1e-9;

/// A huge R at p = 0 stops early once the geometric rest of the changes is
/// within the 9 digits (set by `edge/R_huge_round_limit`, bench/RESULTS.md).
const GEOMETRIC_FROM: u64 = 8;
const GEOMETRIC_LEFT: u64 = 1 << 20;
const GEOMETRIC_CHANGE: f64 = 1e-13;
const GEOMETRIC_REST: f64 = 1e-9;

/// Solves the table; `queried` are the states whose values are printed.
#[inline(never)]
fn solve_table(game: &Game, rounds: u64, queried: &[usize], schedule: &Schedule) -> Solution {
    let ns = game.states();
    let mut stage = Stage::default();
    // "R = 0 with p = 0 is the unlimited game": only a certificate gives it,
    // its limit-sure wins first.
    let unlimited = rounds == 0 && game.keep == 1.0;
    let mut game = game.clone();
    if unlimited {
        game.won = limit_wins(&game, &mut stage.work);
    }
    let game = &game;
    // Known without solving; V = 0 where a state is its own mirror.
    let diagonal = |s: usize| (game.mirror(s) == s).then_some(0.0);
    let exact = |s: usize| game.known(s).or_else(|| diagonal(s));
    // Past the certificates' size only what is known is proved.
    let it = match unlimited && game.width() > MAX_CERTIFY_CAP + 1 {
        true => {
            let open = queried.iter().any(|&s| exact(s).is_none());
            let limit = format!("certificates are made for C <= {MAX_CERTIFY_CAP} only");
            let zero = vec![0.0; ns];
            let warning = open.then_some(limit);
            Iterated { old: zero.clone(), new: zero, done: 0, rest: 0.0, best: None, warning }
        }
        false => iterate(game, rounds, queried, schedule, &mut stage),
    };
    let (old, best) = (&it.old, &it.best);
    // A stage game's gap: each value may be off by half of it.
    let gap = if unlimited { 0.0 } else { stage.worst_gap };
    let warning = it.warning.or_else(|| {
        (gap > STAGE_GAP).then(|| format!("a stage game was solved only to within {gap:.1e}"))
    });
    let carried = 0.5 * gap * (1.0 / (1.0 - game.keep)).min(it.done as f64);
    let around =
        |s: usize| exact(s).map_or(Bounds::around(old[s], it.rest + carried), Bounds::exact);
    let bounds = each(ns, &|s| match best {
        // The discounted game: a certificate, and the contraction's bounds.
        Some((_, cert)) if !unlimited && warning.is_some() => {
            cert.bounds(game, s).within(around(s))
        }
        Some((_, cert)) => cert.bounds(game, s),
        None if unlimited => exact(s).map_or(Bounds::ANY, Bounds::exact),
        None if warning.is_none() => Bounds::exact(old[s]),
        None => around(s),
    });
    let values = each(ns, &|s| bounds[s].mid());
    let tolerance = if unlimited { CERTIFIED } else { STAGE_GAP };
    // Out of work, the bounds may still be narrow enough everywhere asked.
    let warning = warning.filter(|_| queried.iter().any(|&s| bounds[s].width() > tolerance));
    // `new` is V_{R-1} (partial when out of work).
    let next = match warning {
        None if rounds > 0 => it.new,
        _ => values,
    };
    let proved = if unlimited { CERTIFIED } else { DISCOUNTED_CERTIFIED };
    let certificate = it.best.filter(|b| rounds == 0 && b.0 <= proved).map(|b| b.1);
    Solution { bounds, tolerance, next, certificate, warning, game: game.clone() }
}

struct Iterated {
    /// The values after `done` rounds, and the round before's.
    old: Vec<f64>,
    new: Vec<f64>,
    done: u64,
    /// How far V_R (or lim V_k) may be from `old`.
    rest: f64,
    /// The narrowest certificate so far and its width at queried states.
    best: Option<(f64, Certificate)>,
    /// Why the values are not certified.
    warning: Option<String>,
}

/// Value iteration, and the certificates tried along the way.
#[inline(never)]
fn iterate(
    game: &Game,
    rounds: u64,
    queried: &[usize],
    schedule: &Schedule,
    stage: &mut Stage,
) -> Iterated {
    let ns = game.states();
    let (mut old, mut new) = (vec![0.0; ns], vec![0.0; ns]);
    let unlimited = rounds == 0 && game.keep == 1.0;
    let discounted = rounds == 0 && !unlimited;
    // Later rounds add at most change * (keep + keep^2 + ...).
    let tail = game.keep / (1.0 - game.keep);
    let (mut done, mut last) = (0u64, f64::INFINITY);
    let mut changes = Vec::new();
    let mut note = String::new();
    // The narrowest certificate so far, its width at queried states.
    let mut best: Option<(f64, Certificate)> = None;
    let mut rest = 0.0;
    let warning = loop {
        if rounds > 0 && done == rounds {
            break None;
        }
        let change = game.sweep(&old, &mut new, stage, COARSE);
        let mut converged = false;
        let left = if rounds > 0 { rounds - done } else { u64::MAX };
        if let Some(change) = change {
            std::mem::swap(&mut old, &mut new);
            done += 1;
            last = change;
            let left = left - u64::from(rounds > 0);
            converged = change == 0.0 || !unlimited && change * tail.min(left as f64) < CONVERGED;
            if done.is_power_of_two() {
                changes.push(change);
            }
            // Huge R, p = 0: a change shrinking at a rate rho adds at most change
            // rho / (1 - rho) (an extrapolation, not a proof).
            let huge = rounds > 0 && left > GEOMETRIC_LEFT;
            if huge && change < GEOMETRIC_CHANGE && done >= GEOMETRIC_FROM {
                let j = 63 - (done / 2).leading_zeros();
                let rho = (change / changes[j as usize]).powf(1.0 / (done - (1 << j)) as f64);
                converged |= rho < 1.0 && change * rho / (1.0 - rho) < GEOMETRIC_REST;
            }
        } else {
            // Out of work: the rounds left move a value by at most the last change
            // a round (T is a keep-contraction).
            rest = if done == 0 { f64::INFINITY } else { last * tail.min(left as f64) };
        }
        let checkpoint = done >= CERTIFY_FROM && done.is_power_of_two();
        let last_call = change.is_none() || converged;
        // A slow discounted game: certified as the unlimited one.
        let slow =
            done.is_power_of_two() && done >= SLOW_FROM && tail >= SLOW_TAIL || change.is_none();
        let (passes, target) = match () {
            _ if unlimited && (last_call || checkpoint) => (schedule.passes(last_call), CERTIFIED),
            _ if discounted && !converged && slow => (DISCOUNTED.to_vec(), DISCOUNTED_CERTIFIED),
            _ => (Vec::new(), 0.0),
        };
        if !passes.is_empty() {
            if let Some(cert) = (Search { game, table: &old, passes, queried }).certify(stage) {
                let width = cert.width(game, queried);
                if best.as_ref().map_or(true, |b| width < b.0) {
                    best = Some((width, cert));
                }
                if width <= target {
                    break None;
                }
                if unlimited {
                    note = format!("; certified bounds {width:.1e} wide");
                }
            }
        }
        if change.is_none() {
            let why = format!("the last one moved the values by {last:.1e}{note}");
            break Some(format!("out of work after {done} rounds: {why}"));
        }
        if converged {
            break unlimited.then(|| format!("not certified after {done} rounds{note}"));
        }
    };
    Iterated { old, new, done, rest, best, warning }
}

/// The discounted game is certified where 1 / (1 - keep) >= SLOW_TAIL,
/// from sweep SLOW_FROM at each doubling, within DISCOUNTED_CERTIFIED.
const SLOW_TAIL: f64 = 1000.0;
const SLOW_FROM: u64 = 8;
const DISCOUNTED_CERTIFIED: f64 = 2e-12;
const DISCOUNTED: [Pass; 8] = [
    newton(0.0),
    shifted(0.0),
    improved(),
    improved(),
    improved(),
    improved(),
    improved(),
    improved(),
];

/// A pass on the proved lower bounds L (strategy improvement), no tilt.
const fn improved() -> Pass {
    Pass { source: Source::Lower, tilt: 0.0, tol: COARSE, noise: NOISE, budget: LATE_BUDGET }
}

/// The budget of work (`Stage::work`): under 1 s here.
const WORK: u64 = 200_000_000;

impl Game {
    /// `work` times the tables' size over MAX_DENSE_STATES.
    fn budget(&self, work: u64) -> u64 {
        work.saturating_mul((self.width() * self.width() / MAX_DENSE_STATES).max(1) as u64)
    }
}

impl Game {
    /// One round: `new` = T(`old`), mirrored; the largest change, or `None`
    /// when out of work.
    fn sweep(
        &self,
        old: &[f64],
        new: &mut [f64],
        stage: &mut Stage,
        tol: Tolerances,
    ) -> Option<f64> {
        let mut change: f64 = 0.0;
        for s in 0..self.states() {
            let m = self.mirror(s);
            if m == s {
                new[s] = 0.0;
            }
            if m <= s {
                continue;
            }
            if stage.work > self.budget(WORK) {
                return None;
            }
            // A limit-sure win is +-1 whatever the estimates say.
            let v = match self.settled(s) {
                Some(v) => v,
                None => match self.build_stage(s, old, stage) {
                    StageGame::Matrix { rows, cols } => stage.value(rows, cols, tol),
                    StageGame::Decided(v) => v,
                },
            };
            change = change.max((v - old[s]).abs());
            new[s] = v;
            new[m] = -v;
        }
        Some(change)
    }
}

// ---- stage game -------------------------------------------------------------

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
    /// The maximin row and minimax column; no saddle (`red` is the rest)?
    saddle: Saddle,
    reduced: bool,
    /// The best row and column strategies found on `red`.
    best_x: Vec<f64>,
    best_y: Vec<f64>,
    work: u64,
}

/// A pure strategy of each player: A's maximin row, B's minimax column.
#[derive(Default)]
struct Saddle {
    row: usize,
    col: usize,
}

/// A simplex answer this close needs no second try.
const GAP_OK: f64 = 1e-12;

impl Stage {
    /// The value of the matrix game in `m`; leaves what `strategies` needs.
    fn value(&mut self, rows: usize, cols: usize, tol: Tolerances) -> f64 {
        let m = &self.m;
        // Pure saddle point: max of row minima = min of column maxima.
        let (mut lower, mut upper) = (f64::NEG_INFINITY, f64::INFINITY);
        for (i, row) in m.chunks(cols).enumerate() {
            let v = row.iter().fold(f64::INFINITY, |a, &b| a.min(b));
            if v > lower {
                lower = v;
                self.saddle.row = i;
            }
        }
        for j in 0..cols {
            let v = (0..rows).fold(f64::NEG_INFINITY, |a, i| a.max(m[i * cols + j]));
            if v < upper {
                upper = v;
                self.saddle.col = j;
            }
        }
        self.reduced = upper > lower;
        if !self.reduced {
            return lower;
        }
        // Never a single line left (a 1 x 1 rest would be a saddle).
        let (r, c) = self.reduce(rows, cols);
        self.mixed(r, c, lower, upper, tol).clamp(lower, upper)
    }

    /// Removes weakly dominated lines (keeps the value); the rest in `red`.
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
                for k in 0..rows {
                    if !row_on[i] || k == i || !row_on[k] {
                        continue;
                    }
                    if (0..cols).all(|j| !col_on[j] || m[i * cols + j] <= m[k * cols + j]) {
                        row_on[i] = false;
                        changed = true;
                    }
                }
            }
            for j in 0..cols {
                for l in 0..cols {
                    if !col_on[j] || l == j || !col_on[l] {
                        continue;
                    }
                    if (0..rows).all(|i| !row_on[i] || m[i * cols + j] >= m[i * cols + l]) {
                        col_on[j] = false;
                        changed = true;
                    }
                }
            }
        }
        self.red.clear();
        let mut r = 0;
        for i in 0..rows {
            if row_on[i] {
                r += 1;
                for j in 0..cols {
                    if col_on[j] {
                        self.red.push(m[i * cols + j]);
                    }
                }
            }
        }
        (r, self.red.len() / r)
    }

    /// A mixed stage game (r x c in `red`) by simplex, bounded by its
    /// strategies; a wide gap tries the transpose and Bland's rule.
    fn mixed(&mut self, r: usize, c: usize, lower: f64, upper: f64, tol: Tolerances) -> f64 {
        let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
        self.best_x.clear();
        self.best_y.clear();
        // The game, then its transpose; then both with Bland's rule.
        for (bland, transposed) in [(false, false), (false, true), (true, false), (true, true)] {
            let rule = Pivoting { tol, bland };
            let ok = if transposed {
                let neg_t = neg_transpose(&self.red, r, c);
                self.lp.solve(&neg_t, c, r, rule, &mut self.work)
            } else {
                self.lp.solve(&self.red, r, c, rule, &mut self.work)
            };
            if ok {
                let (xs, ys) =
                    if transposed { (&self.lp.y, &self.lp.x) } else { (&self.lp.x, &self.lp.y) };
                let m = &self.red;
                let row = |i: usize| (0..c).map(|j| m[i * c + j] * ys[j]).sum::<f64>();
                let low = guarantee(xs, m, c);
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

    /// Optimal strategies of `m` into `best_x`, `best_y`.
    fn strategies(&mut self, rows: usize, cols: usize, tol: Tolerances) {
        self.value(rows, cols, tol);
        let (mut x, mut y) = (vec![0.0; rows], vec![0.0; cols]);
        if self.reduced {
            x = expand(&self.row_on, &self.best_x);
            y = expand(&self.col_on, &self.best_y);
        }
        // A saddle, or no simplex attempt succeeded (never seen).
        if x.iter().sum::<f64>() == 0.0 {
            x[self.saddle.row] = 1.0;
        }
        if y.iter().sum::<f64>() == 0.0 {
            y[self.saddle.col] = 1.0;
        }
        self.best_x = x;
        self.best_y = y;
    }
}

/// The column player's view of the r x c game `m`: -M^T (c x r).
fn neg_transpose(m: &[f64], r: usize, c: usize) -> Vec<f64> {
    let mut t = Vec::with_capacity(r * c);
    for j in 0..c {
        for i in 0..r {
            t.push(-m[i * c + j]);
        }
    }
    t
}

/// A strategy on the lines `on` that dominance left, on all lines.
fn expand(on: &[bool], best: &[f64]) -> Vec<f64> {
    let mut it = best.iter().copied();
    let pick = |&o: &bool| if o { it.next().unwrap_or(0.0) } else { 0.0 };
    on.iter().map(pick).collect()
}

// ---- certify (untrusted): A's strategies and potentials for `proves` --------

/// Largest C certified ((C+1)^2 states a layer).
const MAX_CERTIFY_CAP: usize = 63;
/// Largest game on dense systems: the old C <= 21 (no answer changed).
const MAX_DENSE_STATES: usize = 22 * 22;
/// The early passes' tilt: staying never ties with a rare move that ends.
const TILT: f64 = 1e-9;
/// Strategies from values this far below H, of the width H - L.
const NEAR_UPPER: f64 = 1.0 / 1024.0;
/// Simplex probabilities below this are noise (early passes).
const NOISE: f64 = 1e-12;
/// B switches on gains above 2^-100 (above the evaluation's error).
const SWITCH_GAIN: i128 = 1 << 20;
/// Rounds of policy iteration, and of refinement per round.
const POLICY_ROUNDS: usize = 60;
const REFINE_ROUNDS: usize = 8;
/// phi drops by SLACK * (1 + B's expected rounds) against rounding.
const SLACK: f64 = (1u64 << 40) as f64;
/// Passes that lower phi to meet the rest (ties between replies).
const LOWER_PASSES: usize = 200;
/// `estimate`'s sweeps, until none moves by ESTIMATE_SETTLED; its rounds'
/// cap; phi drops by SPARSE_SLACK a round (f64: about 2^-50).
const ESTIMATE_SWEEPS: usize = 20_000;
const ESTIMATE_SETTLED: f64 = 1e-15;
const ESTIMATE_ROUNDS: f64 = 1e9;
const SPARSE_SLACK: f64 = (1u128 << 70) as f64;

/// What one call of `certify` searches with.
struct Search<'a> {
    game: &'a Game,
    table: &'a [f64],
    passes: Vec<Pass>,
    queried: &'a [usize],
}

impl Search<'_> {
    /// `certify`, or `certify_layers` for several lost-set pairs.
    fn certify(&self, stage: &mut Stage) -> Option<Certificate> {
        match self.game.layers.len() > 1 {
            true => certify_layers(self, stage),
            false => certify(self, stage),
        }
    }
}

/// Proves bounds from the iterated values; `None` if no strategy passed.
#[inline(never)]
fn certify(search: &Search, stage: &mut Stage) -> Option<Certificate> {
    let (game, table, queried) = (search.game, search.table, search.queried);
    let ns = game.states();
    if game.width() > MAX_CERTIFY_CAP + 1 {
        return None;
    }
    let mut cert = Certificate {
        lower: vec![-GRID_ONE; ns],
        pass_of: vec![usize::MAX; ns],
        strategies: Vec::new(),
    };
    let start = stage.work;
    let everywhere = each(ns, &|s| s);
    let mut newton: Option<NewtonValues> = None;
    for &pass in &search.passes {
        // Past the budget the rest is skipped (the rescue passes have none).
        let budget = game.budget(pass.budget);
        if stage.work - start > budget {
            continue;
        }
        let bounds = |s: usize| cert.bounds(game, s);
        let between = |at: f64| each(ns, &|s| bounds(s).lo + bounds(s).width() * at);
        let source = match pass.source {
            Source::Iterated => table.to_vec(),
            Source::Shifted { by } => game.lowered(table, by),
            Source::NearUpper { below } => between(1.0 - below),
            Source::Lower => between(0.0),
            Source::Newton { .. } | Source::NewtonLimit { .. } if ns > MAX_DENSE_STATES => continue,
            Source::Newton { by } => {
                let limit = start + budget;
                let v = newton.get_or_insert_with(|| newton_values(game, table, stage, limit));
                game.lowered(&v.last, by)
            }
            // Only while a queried state is open: no proved answer changes.
            Source::NewtonLimit { by } => {
                let v = match newton.as_ref().and_then(|n| n.limit.as_ref()) {
                    Some(v) if cert.width(game, queried) > CERTIFIED => v,
                    _ => continue,
                };
                game.lowered(v, by)
            }
            Source::Sweeps { discount, tol } => {
                let (mut source, mut next) = (between(0.5), between(0.5));
                let disc = Game { keep: 1.0 - discount, ..game.clone() };
                for _ in 0..SOURCE_SWEEPS {
                    if disc.sweep(&source, &mut next, stage, tol).is_none() {
                        break;
                    }
                    std::mem::swap(&mut source, &mut next);
                }
                source
            }
        };
        if stage.work - start > budget {
            continue;
        }
        let tilted = each(source.len(), &|s| source[s] * (1.0 - pass.tilt));
        let mut x = Vec::with_capacity(ns);
        for s in 0..ns {
            // The stage game's strategy, or none (decided).
            if game.settled(s).is_some() {
                x.push(Vec::new());
                continue;
            }
            x.push(match game.build_stage(s, &tilted, stage) {
                StageGame::Matrix { rows, cols } => {
                    stage.strategies(rows, cols, pass.tol);
                    dyadic(&stage.best_x, pass.noise)
                }
                StageGame::Decided(_) => Vec::new(),
            });
        }
        cert.consider(game, x, &mut stage.work);
        if cert.width(game, &everywhere) <= CERTIFIED {
            break;
        }
    }
    Some(cert).filter(|c| c.pass_of[0] != usize::MAX)
}

/// `certify` a layer and its mirror at a time, the largest lost sets
/// first (rounds leaving them end at bounds proved before), one strategy
/// per state.
#[inline(never)]
fn certify_layers(search: &Search, stage: &mut Stage) -> Option<Certificate> {
    let (game, table, queried) = (search.game, search.table, search.queried);
    let (ns, size) = (game.states(), game.width() * game.width());
    let mut lower = vec![-GRID_ONE; ns];
    let mut strategy: Vec<Dyadic> = vec![Vec::new(); ns];
    let lost = |l: usize| game.layers[l].lost[0].count_ones() + game.layers[l].lost[1].count_ones();
    for total in (0..=2 * MAX_SKILLS as u32).rev() {
        for l in indices(game.layers.len(), &|l| lost(l) == total) {
            let members = [l, game.layers[l].mirror];
            if members[1] < l {
                continue;
            }
            let members = &members[..if members[1] == l { 1 } else { 2 }];
            let global = |s: usize| members[s / size] * size + s % size;
            let mut outside = vec![0.0; ns];
            for (s, v) in outside.iter_mut().enumerate() {
                *v = (lower[s] - lower[game.mirror(s)]) as f64 * 0.5 / GRID_ONE as f64;
            }
            let part = game.part(members, lower.clone(), outside);
            let states = part.states();
            let asked = indices(states, &|s| queried.contains(&global(s)));
            let table = each(states, &|s| table[global(s)]);
            let passes = search.passes.clone();
            let one = Search { game: &part, table: &table, passes, queried: &asked };
            let cert = match certify(&one, stage) {
                Some(cert) => cert,
                None => continue,
            };
            let x = each(states, &|s| cert.strategies[cert.pass_of[s]][s].clone());
            let phi = match proves(&part, &x, &cert.lower) {
                true => Some(cert.lower),
                false => ReplyProcess::new(&part, &x)
                    .lower_bound(&mut stage.work)
                    .filter(|phi| proves(&part, &x, phi)),
            };
            for s in 0..states {
                if let Some(phi) = &phi {
                    lower[global(s)] = phi[s];
                }
                strategy[global(s)] = x[s].clone();
            }
        }
    }
    Some(Certificate { lower, pass_of: vec![0; ns], strategies: vec![strategy] })
}

struct Certificate {
    /// Per state, A's proved L (H(a, b) = -L(b, a)) and its strategy.
    lower: Vec<i128>,
    pass_of: Vec<usize>,
    strategies: Vec<Vec<Dyadic>>,
}

impl Certificate {
    /// Keeps the bounds `x` proves where they are better.
    fn consider(&mut self, game: &Game, x: Vec<Dyadic>, work: &mut u64) {
        let candidate = ReplyProcess::new(game, &x).lower_bound(work);
        // The only decision: what `proves` passes is proved.
        *work += (x.len() * game.n * game.n) as u64;
        if let Some(phi) = candidate.filter(|phi| proves(game, &x, phi)) {
            for (s, &l) in phi.iter().enumerate() {
                if self.pass_of[s] == usize::MAX || l > self.lower[s] {
                    self.lower[s] = l;
                    self.pass_of[s] = self.strategies.len();
                }
            }
        }
        self.strategies.push(x);
    }

    /// [L(s), H(s)], H(a, b) = -L(b, a).
    fn bounds(&self, game: &Game, s: usize) -> Bounds {
        let t = game.mirror(s);
        let unit = GRID_ONE as f64;
        Bounds { lo: self.lower[s] as f64 / unit, hi: -self.lower[t] as f64 / unit }
    }

    fn width(&self, game: &Game, states: &[usize]) -> f64 {
        let gap = |&s: &usize| self.bounds(game, s).width();
        states.iter().map(gap).fold(0.0, f64::max)
    }
}

/// Where a pass of `certify` takes the values its stage games are built on.
#[derive(Clone, Copy)]
enum Source {
    Iterated,
    /// The iterated values lowered by `by` where not known: A's strategies
    /// never count on stalling, which B's best reply does.
    Shifted {
        by: f64,
    },
    /// Newton's discounted values (`newton_values`), lowered by `by`.
    Newton {
        by: f64,
    },
    /// As `Newton`, on the limit extrapolated where Newton's iteration cycled.
    NewtonLimit {
        by: f64,
    },
    /// H - (H - L) * `below`: a value reached only in the limit needs a
    /// strategy computed close to it.
    NearUpper {
        below: f64,
    },
    /// A's proved lower bounds L (strategy improvement).
    Lower,
    /// `SOURCE_SWEEPS` sweeps from the midpoints, discounted by `discount`.
    Sweeps {
        discount: f64,
        tol: Tolerances,
    },
}

/// One strategy tried by `certify`, a row of its schedule.
#[derive(Clone, Copy)]
struct Pass {
    source: Source,
    /// Stage games on the values times 1 - tilt (staying never ties).
    tilt: f64,
    /// How the stage games are solved, and the least probability kept.
    tol: Tolerances,
    noise: f64,
    /// The call stops before this pass once its passes used this much work.
    budget: u64,
}

/// The passes `certify` tries: early ones every call, late ones last.
struct Schedule {
    /// Every call: `first`, then `early_rounds` rounds of `EARLY_ROUND`.
    first: &'static [Pass],
    early_rounds: usize,
    /// The last call: `last`, the 30 late rows `late_repeats` times, `rescue`.
    last: &'static [Pass],
    late_repeats: usize,
    rescue: &'static [Pass],
}

impl Schedule {
    fn passes(&self, last: bool) -> Vec<Pass> {
        let mut passes: Vec<Pass> = self.first.to_vec();
        for _ in 0..self.early_rounds {
            for source in EARLY_ROUND {
                passes.push(early(source));
            }
        }
        if last {
            passes.extend_from_slice(self.last);
            for _ in 0..self.late_repeats {
                for r in 0..30 {
                    passes.push(late_row(r));
                }
            }
            passes.extend_from_slice(self.rescue);
        }
        passes
    }
}

const fn early(source: Source) -> Pass {
    Pass { source, tilt: TILT, tol: COARSE, noise: NOISE, budget: u64::MAX }
}

/// A pass on the shifted iterated values: no tilt (it would raise negative
/// values towards the stall payoff 0).
const fn shifted(by: f64) -> Pass {
    Pass { source: Source::Shifted { by }, tilt: 0.0, tol: COARSE, noise: NOISE, budget: u64::MAX }
}

/// A pass on the shifted Newton values (no tilt, as `shifted`).
const fn newton(by: f64) -> Pass {
    let source = Source::Newton { by };
    Pass { source, tilt: 0.0, tol: COARSE, noise: NOISE, budget: LATE_BUDGET }
}

/// A pass on the extrapolated Newton values (as `newton`, no budget).
const fn newton_limit(by: f64) -> Pass {
    Pass { source: Source::NewtonLimit { by }, budget: u64::MAX, ..newton(by) }
}

/// The early passes: iterated, shifted twice, then near H, at L, sweeps.
const EARLY_FIRST: [Pass; 3] = [early(Source::Iterated), shifted(1e-8), shifted(1e-7)];
const EARLY_ROUND: [Source; 3] = [
    Source::NearUpper { below: NEAR_UPPER },
    Source::Lower,
    Source::Sweeps { discount: 0.0, tol: COARSE },
];
const EARLY_ROUNDS: usize = 5;

/// The last call's first passes: Newton's values, shifted down.
const NEWTON: [Pass; 3] = [newton(1e-8), newton(1e-9), newton(1e-7)];

/// The late rows' tilts: ten decades, walked one per row from 1e-11.
const LATE_TILTS: [f64; 10] = [1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14];
/// The late passes' nearness to H (1024 times nearer than the early ones).
const LATE_NEAR_UPPER: f64 = NEAR_UPPER / 1024.0;

/// Late row r of 30: each source with each of the ten tilts.
fn late_row(r: usize) -> Pass {
    let tilt = |r: usize| LATE_TILTS[(r + 6) % 10];
    let source = match r % 3 {
        0 => Source::NearUpper { below: LATE_NEAR_UPPER },
        1 => Source::Lower,
        _ => Source::Sweeps { discount: tilt(r - 1), tol: FINE },
    };
    Pass { source, tilt: tilt(r), tol: FINE, noise: 0.0, budget: LATE_BUDGET }
}

/// The rescue passes, last (they change no other answer).
const RESCUE: [Pass; 3] = [newton_limit(1e-8), newton_limit(1e-9), newton_limit(1e-7)];

const SCHEDULE: Schedule = Schedule {
    first: &EARLY_FIRST,
    early_rounds: EARLY_ROUNDS,
    last: &NEWTON,
    late_repeats: 4,
    rescue: &RESCUE,
};

/// Sweeps of value iteration behind a `Source::Sweeps`.
const SOURCE_SWEEPS: usize = 64;
/// The late passes stop at twice value iteration's budget.
const LATE_BUDGET: u64 = 2 * WORK;

/// Newton's lambdas, each level warm-started from the last.
const NEWTON_LAMBDAS: [f64; 16] = [
    1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14, 1e-15,
    1e-16,
];
const NEWTON_SETTLED: f64 = 1e-18;
/// Where Newton's iteration cycles, lambda -> 0 is extrapolated (a
/// sqrt(lambda) term: the last step times 1 / (sqrt(10) - 1)).
const NEWTON_STEP_GAIN: f64 = 0.462_475_295_574_264_3;
const NEWTON_REFINE: usize = 6;
const NEWTON_ROUNDS: usize = 30;

/// The discounted values by Newton's method (Pollatschek and Avi-Itzhak),
/// in double-double, lambda lowered to the game's own or NEWTON_LAMBDAS'.
#[inline(never)]
fn newton_values(game: &Game, start: &[f64], stage: &mut Stage, limit: u64) -> NewtonValues {
    let ns = game.states();
    let mut v = dds(start);
    let mut best = start.to_vec();
    // The values at the lambda before `best`'s, if that one converged too.
    let mut before: Option<Vec<f64>> = None;
    let mut disc = game.clone();
    // The game's own lambda last (p > 0), the decades above it first.
    let target = 1.0 - game.keep;
    let mut lambdas = NEWTON_LAMBDAS.to_vec();
    lambdas.retain(|&l| l > target);
    if target > 0.0 {
        lambdas.push(target);
    }
    for &lambda in &lambdas {
        let keep = Dd::sum(1.0, -lambda);
        disc.keep = keep.hi;
        let mut converged = false;
        for _ in 0..NEWTON_ROUNDS {
            if stage.work > limit {
                return NewtonValues { last: best, limit: None };
            }
            let hi = highs(&v);
            let mut a = vec![0.0; ns * ns];
            // Row s: v(s) - sum coef v(to) = rhs, in double-double.
            let mut coef: Vec<Vec<(usize, Dd)>> = vec![Vec::new(); ns];
            let mut rhs = vec![Dd::from(0.0); ns];
            for s in 0..ns {
                a[s * ns + s] = 1.0;
                if let Some(k) = game.known(s) {
                    rhs[s] = Dd::from(k);
                    continue;
                }
                let (rows, cols) = match disc.build_stage(s, &hi, stage) {
                    StageGame::Matrix { rows, cols } => (rows, cols),
                    StageGame::Decided(d) => {
                        rhs[s] = Dd::from(d);
                        continue;
                    }
                };
                stage.strategies(rows, cols, FINE);
                let (x, y) = (&stage.best_x, &stage.best_y);
                let (sx, sy) = (Dd::total(x), Dd::total(y));
                // B's probabilities normalised once, not once per row of A.
                let yn = each(cols, &|j| Dd::from(y[j]).div(sy));
                for (i, &xi) in x[..rows].iter().enumerate() {
                    if xi <= 0.0 {
                        continue;
                    }
                    let xi = Dd::from(xi).div(sx);
                    for j in 0..cols {
                        if y[j] <= 0.0 {
                            continue;
                        }
                        let p = xi.mul(yn[j]);
                        match game.round(s, i, j) {
                            (0, to) if to >= ns => {
                                let v = Dd::from(game.outside[to - ns]);
                                rhs[s] = rhs[s].add(p.mul(keep).mul(v));
                            }
                            (0, to) => {
                                let c = p.mul(keep);
                                a[s * ns + to] -= c.hi;
                                match coef[s].iter().position(|e| e.0 == to) {
                                    Some(e) => coef[s][e].1 = coef[s][e].1.add(c),
                                    None => coef[s].push((to, c)),
                                }
                            }
                            (o, _) => rhs[s] = rhs[s].add(p.mul(Dd::from(f64::from(o)))),
                        }
                    }
                }
            }
            // Counted as 3 LUs (with the double-double rounds).
            stage.work += (ns * ns * ns) as u64;
            let lu = match Lu::new(a, ns) {
                Some(lu) => lu,
                None => return NewtonValues { last: best, limit: None },
            };
            let mut new = dds(&lu.solve(&highs(&rhs)));
            // Refinement on double-double residuals.
            for _ in 0..NEWTON_REFINE {
                let residual = each(ns, &|s| {
                    let mut r = rhs[s].add(new[s].neg());
                    for &(to, c) in &coef[s] {
                        r = r.add(c.mul(new[to]));
                    }
                    r.hi
                });
                stage.work += (ns * ns) as u64;
                let d = lu.solve(&residual);
                for s in 0..ns {
                    new[s] = new[s].add(Dd::from(d[s]));
                }
            }
            let mut change = 0.0f64;
            for s in 0..ns {
                change = change.max(new[s].add(v[s].neg()).hi.abs());
            }
            v = new;
            if change < NEWTON_SETTLED {
                converged = true;
                break;
            }
        }
        if !converged {
            // Cycling (it need not converge): extrapolate lambda -> 0.
            let limit = before.map(|mut before| {
                for (o, b) in before.iter_mut().zip(&best) {
                    *o = b - (*o - b) * NEWTON_STEP_GAIN;
                }
                before
            });
            return NewtonValues { last: best, limit };
        }
        before =
            Some(std::mem::replace(&mut best, highs(&v))).filter(|_| lambda < NEWTON_LAMBDAS[0]);
    }
    NewtonValues { last: best, limit: None }
}

/// Double-doubles of `x`.
fn dds(x: &[f64]) -> Vec<Dd> {
    each(x.len(), &|i| Dd::from(x[i]))
}

/// The high parts of `v`.
fn highs(v: &[Dd]) -> Vec<f64> {
    each(v.len(), &|i| v[i].hi)
}

struct NewtonValues {
    /// The values at the smallest lambda where the iteration converged.
    last: Vec<f64>,
    /// Where it stopped converging after two levels: the limit extrapolated.
    limit: Option<Vec<f64>>,
}

/// A double-double number hi + lo (|lo| <= ulp(hi) / 2): about 32 digits.
#[derive(Clone, Copy)]
struct Dd {
    hi: f64,
    lo: f64,
}

impl Dd {
    fn from(x: f64) -> Dd {
        Dd { hi: x, lo: 0.0 }
    }

    /// a + b exactly (Knuth's two-sum).
    fn sum(a: f64, b: f64) -> Dd {
        let s = a + b;
        let v = s - a;
        Dd { hi: s, lo: (a - (s - v)) + (b - v) }
    }

    fn add(self, o: Dd) -> Dd {
        let s = Dd::sum(self.hi, o.hi);
        let t = Dd::sum(self.lo, o.lo);
        let u = Dd::sum(s.hi, s.lo + t.hi);
        Dd::sum(u.hi, u.lo + t.lo)
    }

    fn neg(self) -> Dd {
        Dd { hi: -self.hi, lo: -self.lo }
    }

    fn mul(self, o: Dd) -> Dd {
        let p = self.hi * o.hi;
        // p's exact error by a fused multiply-add (exact in std everywhere).
        let e = self.hi.mul_add(o.hi, -p);
        Dd::sum(p, e + (self.hi * o.lo + self.lo * o.hi))
    }

    fn div(self, o: Dd) -> Dd {
        let q1 = self.hi / o.hi;
        let r = self.add(o.mul(Dd::from(q1)).neg());
        let q2 = r.hi / o.hi;
        let r = r.add(o.mul(Dd::from(q2)).neg());
        let q3 = r.hi / o.hi;
        Dd::sum(q1, q2).add(Dd::from(q3))
    }

    fn total(xs: &[f64]) -> Dd {
        xs.iter().fold(Dd::from(0.0), |t, &x| t.add(Dd::from(x)))
    }
}

/// The nearest dyadic strategy to `p` (noise dropped, sum exact).
fn dyadic(p: &[f64], noise: f64) -> Dyadic {
    let one = 1u64 << STRATEGY_BITS;
    let kept: f64 = p.iter().filter(|&&x| x > noise).sum();
    let scale = |&x: &f64| if x > noise { (x / kept * one as f64) as u64 } else { 0 };
    let mut units: Dyadic = each(p.len(), &|k| scale(&p[k]));
    let top = likeliest(p);
    // The likeliest skill absorbs the rounding (pure if it cannot).
    units[top] = 0;
    if units.iter().sum::<u64>() > one {
        units.fill(0);
    }
    units[top] = one - units.iter().sum::<u64>();
    units
}

struct Step {
    to: usize,
    weight: u64,
}

/// One reply of B to A's dyadic strategy at a state.
struct Reply {
    /// Over A's skills that end the game: sum weight * value (as `exact_q`).
    ending: i128,
    ending_part: i128,
    /// No skill of A's strategy ends the game against it.
    endless: bool,
    steps: Vec<Step>,
}

impl Reply {
    /// What the ending skills are worth to A, in f64.
    fn worth(&self) -> f64 {
        let unit = (1u64 << STRATEGY_BITS) as f64;
        (self.ending as f64 + self.ending_part as f64 / unit) / GRID_ONE as f64
    }
}

/// B's policy "stop" (on Z only, worth 0).
const STOP: usize = usize::MAX;

/// B's best reply to A's stationary dyadic strategy: a minimising MDP.
struct ReplyProcess {
    /// Per state (none where a player cannot move).
    replies: Vec<Vec<Reply>>,
    /// A's value (grid units) where a player cannot move, else 0 (stop).
    decided: Vec<i128>,
    /// Z: where B can keep the game going forever without leaving Z.
    stall: Vec<bool>,
    game: Game,
}

impl ReplyProcess {
    #[inline(never)]
    fn new(game: &Game, x: &[Dyadic]) -> ReplyProcess {
        let ns = game.states();
        let mut replies: Vec<Vec<Reply>> = each(ns, &|_| Vec::new());
        let mut decided = vec![0i128; ns];
        for s in 0..ns {
            // Limit-sure wins (as surely as the winner likes), or a player
            // cannot move (as in `build_stage`).
            if let Some(v) = game.known(s) {
                decided[s] = v as i128 * GRID_ONE;
                continue;
            }
            for j in 0..game.moves(s).1 {
                let mut reply = Reply { ending: 0, ending_part: 0, endless: true, steps: vec![] };
                for (i, &weight) in x[s].iter().enumerate().filter(|e| *e.1 > 0) {
                    let (o, to) = game.round(s, i, j);
                    match game.ending(o, to) {
                        None => reply.steps.push(Step { to, weight }),
                        Some(v) => {
                            let weight = i128::from(weight);
                            reply.ending += weight * (v >> STRATEGY_BITS);
                            reply.ending_part += weight * (v & ((1 << STRATEGY_BITS) - 1));
                            reply.endless = false;
                        }
                    }
                }
                replies[s].push(reply);
            }
        }
        // Z: the largest set where some reply never ends and stays in it.
        let mut stall = each(ns, &|s| !replies[s].is_empty());
        let mut changed = true;
        while changed {
            changed = false;
            for s in 0..ns {
                let keeps = |r: &Reply| r.endless && r.steps.iter().all(|st| stall[st.to]);
                if stall[s] && !replies[s].iter().any(keeps) {
                    stall[s] = false;
                    changed = true;
                }
            }
        }
        ReplyProcess { replies, decided, stall, game: Game { won: Vec::new(), ..game.clone() } }
    }

    /// Q_j(phi)(s), floored, each sum below 2^(GRID_BITS + 1).
    fn exact_q(&self, s: usize, j: usize, phi: &[i128]) -> i128 {
        let r = &self.replies[s][j];
        let (mut whole, mut part) = (r.ending, r.ending_part);
        for st in &r.steps {
            let (weight, phi) = (i128::from(st.weight), self.game.carried(phi[st.to]));
            whole += weight * (phi >> STRATEGY_BITS);
            part += weight * (phi & ((1 << STRATEGY_BITS) - 1));
        }
        whole + (part >> STRATEGY_BITS)
    }

    /// A candidate phi: policy iteration (exact residuals), then `settle`.
    #[inline(never)]
    fn lower_bound(&self, work: &mut u64) -> Option<Vec<i128>> {
        let ns = self.replies.len();
        if ns > MAX_DENSE_STATES {
            let (phi, rounds) = self.estimate(work);
            return self.settle(phi, &rounds, SPARSE_SLACK, work);
        }
        let unit = (1u64 << STRATEGY_BITS) as f64;
        let plays = |s: usize, policy: &[usize]| !self.replies[s].is_empty() && policy[s] != STOP;
        // B starts by stopping where it can stall, else with its first skill.
        let mut policy = each(ns, &|s| if self.stall[s] { STOP } else { 0 });
        let mut phi = self.decided.clone();
        let mut system = None;
        for _ in 0..POLICY_ROUNDS {
            // v(s) - sum p v(next) = payoff where B plays; else v = phi.
            let mut a = vec![0.0; ns * ns];
            let mut rhs = vec![0.0; ns];
            for s in 0..ns {
                a[s * ns + s] = 1.0;
                if plays(s, &policy) {
                    let r = &self.replies[s][policy[s]];
                    for st in &r.steps {
                        a[s * ns + st.to] -= st.weight as f64 / unit * self.game.keep;
                    }
                    rhs[s] = r.worth();
                } else {
                    // Decided, or B stops (worth 0).
                    phi[s] = self.decided[s];
                    rhs[s] = phi[s] as f64 / GRID_ONE as f64;
                }
            }
            *work += (ns * ns * ns / 3) as u64;
            let lu = Lu::new(a, ns)?;
            let v = lu.solve(&rhs);
            for s in (0..ns).filter(|&s| plays(s, &policy)) {
                phi[s] = (v[s].clamp(-1.0, 1.0) * GRID_ONE as f64) as i128;
            }
            for _ in 0..REFINE_ROUNDS {
                for s in 0..ns {
                    let q = |j| self.exact_q(s, j, &phi) - phi[s];
                    rhs[s] = if plays(s, &policy) { q(policy[s]) as f64 } else { 0.0 };
                }
                *work += (ns * ns) as u64;
                if rhs.iter().all(|r| r.abs() <= 2.0) {
                    break;
                }
                let d = lu.solve(&rhs);
                for s in 0..ns {
                    phi[s] = (phi[s] + d[s].round() as i128).clamp(-GRID_ONE, GRID_ONE);
                }
            }
            let mut stable = true;
            for s in (0..ns).filter(|&s| !self.replies[s].is_empty()) {
                // B's best reply: its worth to A, and the reply.
                let (mut least, mut best) = (phi[s] - SWITCH_GAIN, policy[s]);
                if self.stall[s] && 0 < least {
                    (least, best) = (0, STOP);
                }
                for j in 0..self.replies[s].len() {
                    let q = self.exact_q(s, j, &phi);
                    if q < least {
                        (least, best) = (q, j);
                    }
                }
                *work += self.replies[s].len() as u64 * 16;
                stable &= best == policy[s];
                policy[s] = best;
            }
            system = Some(lu);
            if stable {
                break;
            }
        }
        // The policy's expected rounds: the same system, 1 where B plays.
        let ones = each(ns, &|s| if plays(s, &policy) { 1.0 } else { 0.0 });
        let rounds = system?.solve(&ones);
        self.settle(phi, &rounds, SLACK, work)
    }

    /// B's best reply by Gauss-Seidel from 0: values and expected rounds.
    #[inline(never)]
    fn estimate(&self, work: &mut u64) -> (Vec<i128>, Vec<f64>) {
        let ns = self.replies.len();
        let (unit, grid) = ((1u64 << STRATEGY_BITS) as f64, GRID_ONE as f64);
        let per = self.game.keep / unit;
        let ending = each(ns, &|s| each(self.replies[s].len(), &|j| self.replies[s][j].worth()));
        let mut v = each(ns, &|s| match self.replies[s].is_empty() {
            true => self.decided[s] as f64 / grid,
            false => 0.0,
        });
        let mut policy = vec![STOP; ns];
        // `base` plus reply j's steps on `v`, a loop back to s solved exactly
        // (a stall A's rare moves end is too slow to iterate); `None` if it
        // stays at s forever (worth 0).
        let through = |s: usize, j: usize, base: f64, v: &[f64]| {
            let (mut stay, mut sum) = (0.0, base);
            for st in &self.replies[s][j].steps {
                let p = st.weight as f64 * per;
                match st.to == s {
                    true => stay += p,
                    false => sum += p * v[st.to],
                }
            }
            (stay < 1.0).then(|| sum / (1.0 - stay))
        };
        for _ in 0..ESTIMATE_SWEEPS {
            let mut moved: f64 = 0.0;
            for s in 0..ns {
                if self.replies[s].is_empty() {
                    continue;
                }
                let (mut least, mut best) = if self.stall[s] { (0.0, STOP) } else { (2.0, 0) };
                for (j, &e) in ending[s].iter().enumerate() {
                    let q = through(s, j, e, &v).unwrap_or(0.0);
                    if q < least {
                        (least, best) = (q, j);
                    }
                }
                *work += self.replies[s].len() as u64 * 4;
                moved = moved.max((least - v[s]).abs());
                (v[s], policy[s]) = (least, best);
            }
            if moved <= ESTIMATE_SETTLED {
                break;
            }
        }
        let mut rounds = vec![0.0; ns];
        for _ in 0..ESTIMATE_SWEEPS {
            let mut moved: f64 = 0.0;
            for s in 0..ns {
                if policy[s] == STOP {
                    continue;
                }
                let r = through(s, policy[s], 1.0, &rounds).unwrap_or(ESTIMATE_ROUNDS);
                moved = moved.max(r - rounds[s]);
                rounds[s] = r.min(ESTIMATE_ROUNDS);
            }
            *work += ns as u64;
            if moved <= 1e-3 {
                break;
            }
        }
        (each(ns, &|s| (v[s].clamp(-1.0, 1.0) * grid) as i128), rounds)
    }

    /// `phi` lowered by `slack` * (1 + rounds), then until `proves` holds.
    #[inline(never)]
    fn settle(
        &self,
        mut phi: Vec<i128>,
        rounds: &[f64],
        slack: f64,
        work: &mut u64,
    ) -> Option<Vec<i128>> {
        let ns = self.replies.len();
        for s in (0..ns).filter(|&s| !self.replies[s].is_empty()) {
            let drop = (slack * (1.0 + rounds[s].max(0.0))).min(GRID_ONE as f64) as i128;
            phi[s] = (phi[s] - drop).max(-GRID_ONE);
        }
        // Meet the rest exactly; `proves` decides the result.
        for _ in 0..LOWER_PASSES {
            let mut lowered = false;
            for s in (0..ns).filter(|&s| !self.replies[s].is_empty()) {
                let mut least = if self.stall[s] { phi[s].min(0) } else { phi[s] };
                for j in 0..self.replies[s].len() {
                    least = least.min(self.exact_q(s, j, &phi));
                }
                *work += self.replies[s].len() as u64 * 16;
                if least < phi[s] {
                    phi[s] = least.max(-GRID_ONE);
                    lowered = true;
                }
            }
            if !lowered {
                return Some(phi);
            }
        }
        None
    }
}

// ---- output -----------------------------------------------------------------

pub fn solve(
    input: Vec<u8>,
    options: &Options,
    out: &mut impl Write,
    _trace: &mut impl Write,
) -> Result<(), Failure> {
    answer(&input, options, &SCHEDULE, out)
}

/// `solve` with a schedule (a test tries one that cannot prove all).
fn answer(
    input: &[u8],
    options: &Options,
    schedule: &Schedule,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let prob = parse_problem(input, options.strict)?;
    let n = prob.variant.skills.len();
    if prob.cap > MAX_CAP || n > MAX_SKILLS {
        return Err(Failure::NoExactAnswer(format!(
            "the variant is too large to solve here (n = {}, C = {}; limits n <= {}, C <= {})",
            n, prob.cap, MAX_SKILLS, MAX_CAP
        )));
    }
    let lost: Vec<[u64; 2]> = prob.queries.iter().map(|q| q.lost).collect();
    let w = prob.cap as usize + 1;
    let mut game = match Game::new(&prob.variant, prob.cap, prob.keep, &lost) {
        Some(game) if game.states() <= (MAX_CAP as usize + 1).pow(2) => game,
        _ => {
            return Err(Failure::NoExactAnswer(format!(
                "the variant is too large to solve here (C = {}: more than {} pairs of lost \
                 sets, or (C+1)^2 states per pair past {} in all, reachable from the queries)",
                prob.cap,
                MAX_LAYERS,
                (MAX_CAP + 1).pow(2)
            )))
        }
    };
    // A p too small to change 1 - p/100 in f64 plays the unlimited game.
    if prob.keep < 1.0 {
        game.keep_units = prob.keep_units;
    }
    let game = game;
    let layer = |lost: [u64; 2]| game.layers.iter().position(|l| l.lost == lost).unwrap_or(0);
    let queried: Vec<usize> =
        prob.queries.iter().map(|q| (layer(q.lost) * w + q.a) * w + q.b).collect();
    let solution = solve_table(&game, prob.rounds, &queried, schedule);
    let print = Printer { variant: &prob.variant, game: &solution.game };
    let mut text = String::new();
    let mut stage = Stage::default();
    for &s in &queried {
        text.push_str(&format_value(solution.bounds[s].mid()));
        text.push('\n');
        if options.strategy {
            print.strategies(s, &solution.next, &mut stage, &mut text);
            print.proof(s, solution.certificate.as_ref(), &mut text);
        }
    }
    let why =
        solution.warning.is_some().then(|| open_states(&print, &solution, &queried, &mut text));
    out.write_all(text.as_bytes()).map_err(unwritable)?;
    match why {
        Some(why) => Err(Failure::NoExactAnswer(why)),
        None => Ok(()),
    }
}

impl Game {
    /// The first step of A's limit-sure strategy at s (millionths): one level-0
    /// skill progressing against every reply, else those progressing, evenly.
    #[inline(never)]
    fn ladder_move(&self, s: usize) -> Option<Vec<i64>> {
        let (rows, cols) = self.moves(s);
        let rank = |t: usize| self.won.get(t).copied().unwrap_or(0);
        // As in `has_ladder` (X: the states won before s).
        let step = |i: usize, j: usize| match self.round(s, i, j) {
            (0, to) => (rank(to) == 0, rank(to) > 0 && rank(to) < rank(s)),
            (o, _) => (o < 0, o > 0),
        };
        let (mut units, mut useful) = (vec![0i64; rows], Vec::new());
        for i in 0..rows {
            let (mut safe, mut all, mut some) = (true, true, false);
            for j in 0..cols {
                let (loss, progress) = step(i, j);
                (safe, all, some) = (safe && !loss, all && progress, some || progress);
            }
            if safe && all {
                units[i] = 1_000_000;
                return Some(units);
            }
            if safe && some {
                useful.push(i);
            }
        }
        let k = useful.len() as i64;
        for (at, &i) in useful.iter().enumerate() {
            units[i] = 1_000_000 / k + if at == 0 { 1_000_000 % k } else { 0 };
        }
        (k > 0).then_some(units)
    }
}

struct Printer<'a> {
    variant: &'a Variant<'a>,
    /// The game solved (with its limit-sure wins).
    game: &'a Game,
}

impl Printer<'_> {
    fn name(&self, x: usize) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(self.variant.skills[x].name)
    }

    /// The skills of positive weight in the variant's order at s (side 0: A).
    fn shown(&self, units: &[i64], s: usize, side: usize) -> Vec<(usize, i64)> {
        let game = self.game;
        let kept = &game.layers[game.at(s).0].kept[side];
        let mut by_id = vec![0; game.n];
        for (i, &u) in units.iter().enumerate() {
            by_id[game.order[kept[i]]] = u;
        }
        let mut shown = Vec::new();
        for (id, u) in by_id.into_iter().enumerate() {
            if u > 0 {
                shown.push((id, u));
            }
        }
        shown
    }

    /// A state as written: `a b` (`sep` between), then lost sets if lasting.
    fn state(&self, s: usize, sep: &str) -> String {
        let (l, a, b) = self.game.at(s);
        let mut text = format!("{a}{sep}{b}");
        if !self.variant.lasting.is_empty() {
            text += " lost";
            for set in self.game.layers[l].lost {
                text += &format!(" {}", set.count_ones());
                for x in (0..self.game.n).filter(|&x| set >> x & 1 == 1) {
                    text += &format!(" {}", self.name(x));
                }
            }
        }
        text
    }

    /// The `A:` and `B:` lines: the first round's strategies on `next`.
    #[inline(never)]
    fn strategies(&self, s: usize, next: &[f64], stage: &mut Stage, text: &mut String) {
        let game = self.game;
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        if let StageGame::Matrix { rows: r, cols: c } = game.build_stage(s, next, stage) {
            stage.strategies(r, c, COARSE);
            xs = shown_strategy(&stage.best_x, &stage.m, c);
            ys = shown_strategy(&stage.best_y, &neg_transpose(&stage.m, r, c), r);
            // A limit-sure win: its winner's first step, not a stall at value 1.
            match game.settled(s) {
                Some(v) if v > 0.0 => xs = game.ladder_move(s).unwrap_or(xs),
                Some(_) => ys = game.ladder_move(game.mirror(s)).unwrap_or(ys),
                None => {}
            }
        }
        for (side, who, units) in [(0, "A:", xs), (1, "B:", ys)] {
            text.push_str(who);
            for (i, u) in self.shown(&units, s, side) {
                let (whole, part) = (u / 1_000_000, u % 1_000_000);
                *text += &format!(" {} {}.{:06}", self.name(i), whole, part);
            }
            text.push('\n');
        }
    }

    /// The unlimited game's proof: a limit-sure win alone, or the `lower` and
    /// `upper` strategies, each `limit` line once.
    #[inline(never)]
    fn proof(&self, s: usize, cert: Option<&Certificate>, text: &mut String) {
        let game = self.game;
        if let Some(v) = game.settled(s) {
            let winner = if v > 0.0 { "A" } else { "B" };
            *text += &format!("limit {winner} {}\n", self.state(s, " "));
            return;
        }
        let cert = match cert {
            Some(cert) => cert,
            None => return,
        };
        let mut limits: Vec<String> = Vec::new();
        for (keyword, from) in [("lower", s), ("upper", game.mirror(s))] {
            let x = &cert.strategies[cert.pass_of[from]];
            let lower = keyword == "lower";
            for s in reachable(game, x, from) {
                let shown_at = self.state(if lower { s } else { game.mirror(s) }, " ");
                if let Some(v) = game.settled(s) {
                    let winner = if (v > 0.0) == lower { "A" } else { "B" };
                    let line = format!("limit {winner} {shown_at}\n");
                    if !limits.contains(&line) {
                        *text += &line;
                        limits.push(line);
                    }
                    continue;
                }
                *text += &format!("{keyword} {shown_at}");
                let units = each(x[s].len(), &|i| x[s][i] as i64);
                for (i, u) in self.shown(&units, s, 0) {
                    *text += &format!(" {} {}", self.name(i), u);
                }
                text.push('\n');
            }
        }
    }
}

/// Exit 3: `open STATE L H` per queried state wider than `tolerance`.
#[inline(never)]
fn open_states(print: &Printer, sol: &Solution, queried: &[usize], text: &mut String) -> String {
    let bounds = &sol.bounds;
    let why = sol.warning.as_deref().unwrap_or_default();
    let mut listed = vec![false; bounds.len()];
    let mut widest: Option<usize> = None;
    let mut count = 0;
    for &s in queried {
        let b = bounds[s];
        if b.width() <= sol.tolerance || std::mem::replace(&mut listed[s], true) {
            continue;
        }
        count += 1;
        if widest.map_or(true, |t| b.width() > bounds[t].width()) {
            widest = Some(s);
        }
        let (lo, hi) = (format_bound(b.lo, f64::floor), format_bound(b.hi, f64::ceil));
        *text += &format!("open {} {lo} {hi}\n", print.state(s, " "));
    }
    let states = format!("{count} queried state{} open", if count == 1 { "" } else { "s" });
    match widest {
        Some(s) => {
            let at = print.state(s, ", ");
            format!("{states} (widest: {:.1e} at ({at})): {why}", bounds[s].width())
        }
        None => format!("{states}: {why}"),
    }
}

/// A bound with 9 digits, rounded outwards by `round`.
fn format_bound(v: f64, round: fn(f64) -> f64) -> String {
    let margin = if round(0.5) > 0.5 { 1e-3 } else { -1e-3 };
    let units = (round(v * 1e9 + margin) as i64).clamp(-1_000_000_000, 1_000_000_000);
    let sign = if units < 0 { "-" } else { "" };
    let units = units.unsigned_abs();
    format!("{sign}{}.{:09}", units / 1_000_000_000, units % 1_000_000_000)
}

/// The states reachable from `from`, A playing `x`, B anything.
#[inline(never)]
fn reachable(game: &Game, x: &[Dyadic], from: usize) -> Vec<usize> {
    let process = ReplyProcess::new(game, x);
    let mut seen = vec![false; x.len()];
    let mut todo = vec![from];
    while let Some(s) = todo.pop() {
        if !std::mem::replace(&mut seen[s], true) {
            for r in &process.replies[s] {
                for st in &r.steps {
                    todo.push(st.to);
                }
            }
        }
    }
    indices(x.len(), &|s| seen[s])
}

/// Largest denominator tried for the strategy shown by `--strategy`.
const MAX_SHOWN_DENOMINATOR: u32 = 1000;
/// A simpler strategy is shown if this close.
const SHOWN_SLACK: f64 = 1e-12;

/// What A guarantees with `x` in the game `m`: its worst column.
fn guarantee(x: &[f64], m: &[f64], cols: usize) -> f64 {
    let pay = |j: usize| (0..x.len()).map(|i| x[i] * m[i * cols + j]).sum::<f64>();
    (0..cols).map(pay).fold(f64::INFINITY, f64::min)
}

/// The first index of the largest of `p`.
fn likeliest(p: &[f64]) -> usize {
    (0..p.len()).fold(0, |b, k| if p[k] > p[b] { k } else { b })
}

/// The rows' strategy shown: the k/d of least d guaranteeing as much to
/// SHOWN_SLACK (1/5 shows 0.200000), else the simplex's.
#[inline(never)]
fn shown_strategy(probs: &[f64], m: &[f64], cols: usize) -> Vec<i64> {
    let target = guarantee(probs, m, cols) - SHOWN_SLACK;
    let top = likeliest(probs);
    for d in 1..=MAX_SHOWN_DENOMINATOR {
        let d = f64::from(d);
        let mut k = each(probs.len(), &|i| (probs[i] * d).round());
        k[top] += d - k.iter().sum::<f64>();
        if k[top] < 0.0 {
            continue;
        }
        let simple = each(k.len(), &|i| k[i] / d);
        if guarantee(&simple, m, cols) >= target {
            return round_strategy(&simple, m, cols);
        }
    }
    round_strategy(probs, m, cols)
}

/// Millionths: floors, the rest on the likeliest, then unit moves while
/// they raise the guarantee.
#[inline(never)]
fn round_strategy(probs: &[f64], m: &[f64], cols: usize) -> Vec<i64> {
    // Whole millionths, held exactly in f64 so that `guarantee` prices them.
    let mut units = each(probs.len(), &|i| (probs[i] * 1e6).floor());
    units[likeliest(probs)] += 1e6 - units.iter().sum::<f64>();
    let k = units.len();
    loop {
        let mut best = (guarantee(&units, m, cols), 0, 0);
        for (from, to) in (0..k * k).map(|e| (e / k, e % k)) {
            if units[from] > 0.0 {
                units[from] -= 1.0;
                units[to] += 1.0;
                let g = guarantee(&units, m, cols);
                if g > best.0 {
                    best = (g, from, to);
                }
                units[from] += 1.0;
                units[to] -= 1.0;
            }
        }
        if best.1 == best.2 {
            return each(k, &|i| units[i] as i64);
        }
        units[best.1] -= 1.0;
        units[best.2] += 1.0;
    }
}

/// Exactly 9 digits after the point; `-0.000000000` becomes `0.000000000`.
fn format_value(v: f64) -> String {
    format!("{:.9}", v.clamp(-1.0, 1.0)).replace("-0.000000000", "0.000000000")
}

// ---- command line -----------------------------------------------------------

/// The command-line options (see `HELP`).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Also check the statement's layout (`--strict`).
    strict: bool,
    /// Print the strategies after each value (`--strategy`).
    strategy: bool,
}

const HELP: &str = "\
ji_solver: the value of 集 (波波攒) under optimal play.
usage:   ji_solver [options] < input
input:   n, then n skills `name delta req k beaten_1 .. beaten_k`, optionally
         `lasting m` and m lasting effects (docs/ji.md), then `R p` (round
         limit, 0 = none; draw chance in percent), then q queries `x y`
         (counts of A and B, 0..=C = max req), each optionally followed by
         `lost i a_1 .. a_i j b_1 .. b_j`: the skills A and B have lost (a
         union of taken lists; none if absent); any whitespace. R = 0
         with p = 0 is the unlimited game (endless play pays 0).
output:  per query P(A wins) - P(B wins), 9 digits after the point (for the
         unlimited game proved within 5e-8).
options: --strategy  after each value `A: name prob ...` and `B: ...`, the
                     first round's (6 decimals: the k/d of least d <= 1000
                     that guarantees as much, else the simplex's); R = 0
                     (proved by strategies): the proof,
                     `lower|upper a b name u ...`, A's|B's strategy at each
                     reachable (a, b), u / 2^60, or `limit A|B a b` where
                     that player wins as surely as it likes (docs/ji.md);
                     with lasting effects each state `a b` is written
                     `a b lost i names.. j names..` (here and in `open`)
         --strict    also check the layout: one record per line, single
                     spaces, a final newline, integers without a leading
                     zero, p with at most 3 decimals (`line L column C: ...`).
         --validate  as --strict, no output: exit 42 valid, 43 and why not
         --help      print this help and exit
exit:    0 ok, 1 unreadable input or unwritable output, 2 bad input or
         argument, 3 not certified or too large: each value printed is the
         midpoint of what is proved, and after the queries' lines one line
         `open a b L H` per queried state (a, b) whose value is not proved,
         L <= value <= H (9 digits, rounded outwards); stderr says how many
";

impl Options {
    /// Takes one option `name`; false if it is none of ours.
    fn set(&mut self, name: &str, _: &mut std::slice::Iter<OsString>) -> Result<bool, Failure> {
        match name {
            "--strict" => self.strict = true,
            "--strategy" => self.strategy = true,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

// ---- shared blocks (copies: edit their masters) -----------------------------

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

// shared: simplex begin, master src/shared/simplex.rs (edit there, then run scripts/sync-shared)
/// How `Simplex::solve` pivots: its tolerances, and Bland's rule (the
/// smallest index) instead of the steepest reduced cost.
#[derive(Clone, Copy)]
struct Pivoting {
    tol: Tolerances,
    bland: bool,
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

/// The simplex's tolerances: a reduced cost above `-cost` counts as
/// optimal, a pivot below `pivot` is refused (tiny pivots can be far off).
#[derive(Clone, Copy)]
struct Tolerances {
    cost: f64,
    pivot: f64,
}

/// Value iteration, the output and the early certify passes: sturdy on
/// degenerate games (a Bland pivot on 1e-12 was off by 1e-5).
const COARSE: Tolerances = Tolerances { cost: 1e-11, pivot: 1e-9 };
/// The late certify passes: probabilities near 1e-12 and below survive
/// (rare moves; 988 instead of 975 of the 1,000 random variants proved,
/// measured with the 48 late passes of then).
const FINE: Tolerances = Tolerances { cost: 1e-16, pivot: 1e-12 };

impl Simplex {
    /// Solves the matrix game `a` (r x c, rows maximise): max sum(y) s.t.
    /// (a + shift) y <= 1, y >= 0; y and its dual x are the strategies.
    /// `bland`: smallest index instead of steepest cost.
    fn solve(&mut self, a: &[f64], r: usize, c: usize, rule: Pivoting, work: &mut u64) -> bool {
        let (cost_eps, pivot_eps, bland) = (rule.tol.cost, rule.tol.pivot, rule.bland);
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
            let mut best = -cost_eps;
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
                if t > pivot_eps {
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
// shared: simplex end

// shared: lu begin, master src/shared/lu.rs (edit there, then run scripts/sync-shared)
/// An LU factorisation with partial pivoting of an m x m matrix.
struct Lu {
    m: usize,
    a: Vec<f64>,
    pivot: Vec<usize>,
}

impl Lu {
    fn new(mut a: Vec<f64>, m: usize) -> Option<Lu> {
        let mut pivot = Vec::with_capacity(m);
        for c in 0..m {
            let p = (c..m)
                .max_by(|&i, &j| a[i * m + c].abs().total_cmp(&a[j * m + c].abs()))
                .unwrap_or(c);
            if a[p * m + c].abs() < 1e-300 {
                return None;
            }
            pivot.push(p);
            for k in 0..m {
                a.swap(c * m + k, p * m + k);
            }
            for i in c + 1..m {
                let f = a[i * m + c] / a[c * m + c];
                a[i * m + c] = f;
                if f != 0.0 {
                    for k in c + 1..m {
                        a[i * m + k] -= f * a[c * m + k];
                    }
                }
            }
        }
        Some(Lu { m, a, pivot })
    }

    fn solve(&self, b: &[f64]) -> Vec<f64> {
        let (m, a) = (self.m, &self.a);
        let mut x = b.to_vec();
        // The rows were swapped whole (multipliers too): permute first.
        for c in 0..m {
            x.swap(c, self.pivot[c]);
        }
        for c in 0..m {
            for i in c + 1..m {
                x[i] -= a[i * m + c] * x[c];
            }
        }
        for c in (0..m).rev() {
            let s: f64 = (c + 1..m).map(|k| a[c * m + k] * x[k]).sum();
            x[c] = (x[c] - s) / a[c * m + c];
        }
        x
    }
}
// shared: lu end

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
#[path = "../../tests/unit/ji_solver.rs"]
mod tests;
