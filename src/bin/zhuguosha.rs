//! [SDOI2010] 猪国杀 (Luogu P2482, LOJ 2885): simulate a game of "Pig Kill".
//!
//! Input (stdin): `n m`, then per pig `ROLE c1 c2 c3 c4`, then the m deck
//! cards top first, read the way accepted C++ solutions read it with `cin >>`
//! (`HELP` gives the limits and the `--strict` layout). Output (stdout): the
//! winner `MP` or `FP`, then each pig's hand left to right or `DEAD`.
//! `--trace` also writes every event of the game to stderr (docs/zhuguosha.md).
//!
//! Exit codes (`Failure::exit_code`, docs/contract.md): 0 ok; 2 bad input or
//! argument (`zhuguosha: line L: <what>`, with `--strict` `line L column C`);
//! 3 valid, but the game never ends (see `Game::run`); 1 unreadable input or
//! unwritable output; `--validate` 42 valid, 43 not.
//!
//! Complexity: every card use costs O(n) ("the leftmost usable card" is a
//! minimum over 8 list heads, see `Hand`, never a scan of the hand). The run
//! is linear in the card moves, and a never-ending game is cut off after one
//! quiet round once the deck is exhausted (`Game::run`), so no input makes
//! the program allocate more than that.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, Read, Write};

// ---- input ------------------------------------------------------------------

/// Why a run produced no (complete) answer; `Display` words it after
/// `zhuguosha: `.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    /// A bad command-line argument: the whole message (exit code 2).
    BadArgument(String),
    /// Bad input: 1-based line number and what is wrong (exit code 2).
    BadInput { line: usize, what: String },
    /// Input off the statement's layout under `--strict`: 1-based line and
    /// column (characters) and what is wrong (exit code 2).
    BadLayout { line: usize, column: usize, what: String },
    /// Valid input, but the game cannot end: why (exit code 3).
    NoExactAnswer(String),
    /// Reading stdin failed: the OS error (exit code 1).
    UnreadableInput(String),
    /// Writing the answer or the trace failed: the OS error (exit code 1).
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
            Failure::BadArgument(what) | Failure::NoExactAnswer(what) => write!(f, "{what}"),
            Failure::BadInput { line, what } => write!(f, "line {line}: {what}"),
            Failure::BadLayout { line, column, what } => {
                write!(f, "line {line} column {column}: {what}")
            }
            Failure::UnreadableInput(e) => write!(f, "cannot read the input: {e}"),
            Failure::UnwritableOutput(e) => write!(f, "cannot write the output: {e}"),
        }
    }
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

/// A token as zhuguosha's messages quote it.
fn shown(token: &[u8]) -> String {
    format!("'{}'", show(token))
}

/// C's `isspace`: the bytes `cin >>` skips between tokens.
fn is_space(b: u8) -> bool {
    b == b' ' || (b'\t'..=b'\r').contains(&b)
}

/// Where a byte is: 1-based line, 1-based column in characters (as an
/// editor shows it; a byte that is not UTF-8 counts as one, as U+FFFD).
struct Place {
    line: usize,
    column: usize,
}

/// The place of `input[at]` (or of the end of input). Only error messages
/// need it, so it is computed only then.
fn place(input: &[u8], at: usize) -> Place {
    let before = &input[..at];
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |k| k + 1);
    let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
    Place { line: 1 + before.iter().filter(|&&b| b == b'\n').count(), column }
}

/// The token being read, for the messages.
#[derive(Clone, Copy)]
enum Want {
    PigCount,
    DeckSize,
    /// Pig number (1-based).
    Role(usize),
    /// A card of a pig's starting hand (both 1-based).
    Card {
        pig: usize,
        k: usize,
    },
    /// Deck card `k` (1-based) of `m`.
    Deck {
        k: usize,
        m: usize,
    },
    /// After the m-th deck card: nothing but a line end (`--strict` only).
    End(usize),
}

impl fmt::Display for Want {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Want::PigCount => write!(f, "the pig count n"),
            Want::DeckSize => write!(f, "the deck size m"),
            Want::Role(pig) => write!(f, "pig {pig}'s role"),
            Want::Card { pig, k } => write!(f, "pig {pig}'s card {k}"),
            Want::Deck { k, m } => write!(f, "deck card {k} of {m}"),
            Want::End(m) => write!(f, "the end of the input after the {m} deck cards"),
        }
    }
}

/// What the statement's layout puts before a token: "所有的相邻的两个字符串都
/// 严格用 1 个空格隔开，行尾没有多余空格", one record (the header, a pig, the
/// deck) per line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gap {
    /// Nothing: the first token of the input.
    Start,
    /// Exactly one space.
    Space,
    /// Exactly one line end, `\n` or `\r\n`.
    LineEnd,
}

/// What a whitespace run (or the token after it) is, for the messages.
fn describe(rest: &[u8]) -> String {
    match rest {
        [] => "the end of the input".into(),
        [b'\n', ..] | [b'\r', b'\n', ..] => "the end of the line".into(),
        [b' ', ..] => "a space".into(),
        [b'\t', ..] => "a tab".into(),
        [b'\r', ..] => "a carriage return without a line feed".into(),
        [b, ..] if is_space(*b) => format!("the control byte {}", show(&[*b])),
        _ => {
            let end = rest.iter().position(|&b| is_space(b)).unwrap_or(rest.len());
            format!("the token {}", shown(&rest[..end]))
        }
    }
}

/// Reads tokens like `cin >> s`; with `strict` it also checks the whitespace
/// before each token against the statement's layout.
struct Reader<'a> {
    input: &'a [u8],
    at: usize,
    strict: bool,
}

impl<'a> Reader<'a> {
    /// A bad-input failure about the byte at `at`: `line L: ...`, or with
    /// `--strict` `line L column C: ...`.
    fn bad_at<T>(&self, at: usize, what: String) -> Result<T, Failure> {
        let Place { line, column } = place(self.input, at);
        if self.strict {
            Err(Failure::BadLayout { line, column, what })
        } else {
            Err(Failure::BadInput { line, what })
        }
    }

    /// The next token; `gap` is what `--strict` demands before it. With
    /// `Want::End` (strict only) the input must end there. The checks are
    /// out of line: a judge run only skips and scans.
    #[inline]
    fn token(&mut self, gap: Gap, want: Want) -> Result<&'a [u8], Failure> {
        let input = self.input;
        let from = self.at;
        let mut at = from;
        while at < input.len() && is_space(input[at]) {
            at += 1;
        }
        let start = at;
        while at < input.len() && !is_space(input[at]) {
            at += 1;
        }
        self.at = at;
        if self.strict || start == input.len() {
            self.check(from, start, gap, want)?;
        }
        Ok(&input[start..at])
    }

    /// A whole number in `lo..=hi` ("正整数"); `--strict` also refuses a
    /// leading zero.
    fn number(&mut self, gap: Gap, want: Want, lo: usize, hi: usize) -> Result<usize, Failure> {
        let t = self.token(gap, want)?;
        let name = if let Want::PigCount = want { "n" } else { "m" };
        match number(t, lo, hi) {
            Some(_) if self.strict && t[0] == b'0' => {
                self.bad_token(t, format!("{} has a leading zero: {}", name, shown(t)))
            }
            Some(v) => Ok(v),
            None => self.bad_token(
                t,
                format!(
                    "{} must be a whole number from {} to {}, found {}",
                    name,
                    lo,
                    hi,
                    shown(t)
                ),
            ),
        }
    }

    /// A bad-input failure about `token`, the one just read.
    fn bad_token<T>(&self, token: &[u8], what: String) -> Result<T, Failure> {
        self.bad_at(self.at - token.len(), what)
    }

    /// The end of the input where a token is needed, `--strict`'s layout,
    /// and with `Want::End` the end of the input after the deck.
    #[cold]
    fn check(&self, from: usize, start: usize, gap: Gap, want: Want) -> Result<(), Failure> {
        if self.strict {
            self.check_gap(from, start, gap, want)?;
        }
        match want {
            Want::End(_) if start == self.input.len() => Ok(()),
            Want::End(_) => self.bad_at(
                start,
                format!("expected {}, found {}", want, describe(&self.input[start..])),
            ),
            _ if start < self.input.len() => Ok(()),
            Want::Deck { k, m } => self
                .bad_at(start, format!("the input ends after {} of the {} deck cards", k - 1, m)),
            _ => self.bad_at(start, format!("expected {want}, found the end of the input")),
        }
    }

    /// `--strict`: the whitespace `input[from..start]` must be exactly
    /// `gap`. A run cut short by the end of the input is left to `check`
    /// (a missing token), except after the last card (no final newline).
    fn check_gap(&self, from: usize, start: usize, gap: Gap, want: Want) -> Result<(), Failure> {
        let run = &self.input[from..start];
        let fits = match gap {
            Gap::Start => Some(0),
            Gap::Space => run.starts_with(b" ").then_some(1),
            Gap::LineEnd if run.starts_with(b"\n") => Some(1),
            Gap::LineEnd if run.starts_with(b"\r\n") => Some(2),
            Gap::LineEnd => None,
        };
        if fits == Some(run.len()) {
            return Ok(());
        }
        let bad = from + fits.unwrap_or(0);
        let rest = &self.input[bad..];
        let what = match (gap, fits) {
            (Gap::LineEnd, None) if rest.is_empty() => match want {
                Want::End(_) => "no newline at the end of the last line".into(),
                _ => return Ok(()),
            },
            (Gap::Space, None) if rest.is_empty() => return Ok(()),
            (Gap::Start, _) => {
                format!("expected {} at the start of the input, found {}", want, describe(rest))
            }
            (Gap::Space, None) => {
                format!("expected a single space before {}, found {}", want, describe(rest))
            }
            (Gap::Space, _) => {
                format!("expected {} after a single space, found {}", want, describe(rest))
            }
            (Gap::LineEnd, None) => {
                let blanks = rest.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
                if matches!(&rest[blanks..], [] | [b'\n', ..] | [b'\r', b'\n', ..]) {
                    "trailing whitespace at the end of the line".into()
                } else if let Want::End(m) = want {
                    format!(
                        "expected the end of the line after the {} deck cards, found {}",
                        m,
                        describe(rest)
                    )
                } else {
                    format!(
                        "expected the end of the line before {} (one record per line), found {}",
                        want,
                        describe(rest)
                    )
                }
            }
            (Gap::LineEnd, _) if matches!(rest, [b'\n', ..] | [b'\r', b'\n', ..]) => {
                format!("expected {want}, found a blank line")
            }
            (Gap::LineEnd, _) => {
                format!("expected {} at the start of the line, found {}", want, describe(rest))
            }
        };
        self.bad_at(bad, what)
    }
}

/// A whole number in `lo..=hi`; `None` for anything else (signs, letters,
/// overlong digit strings).
fn number(token: &[u8], lo: usize, hi: usize) -> Option<usize> {
    if token.is_empty() || token.len() > 9 || !token.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let v = token.iter().fold(0usize, |v, &d| v * 10 + usize::from(d - b'0'));
    if (lo..=hi).contains(&v) {
        Some(v)
    } else {
        None
    }
}

/// Card kinds, in the order of `CARD_LETTERS`.
type Card = u8;
const PEACH: Card = 0; // 桃 P
const KILL: Card = 1; // 杀 K
const DODGE: Card = 2; // 闪 D
const DUEL: Card = 3; // 决斗 F
const INVASION: Card = 4; // 南猪入侵 N
const ARROWS: Card = 5; // 万箭齐发 W
const NEGATE: Card = 6; // 无懈可击 J
const CROSSBOW: Card = 7; // 猪哥连弩 Z
const CARD_LETTERS: &[u8; 8] = b"PKDFNWJZ";

/// The card of each byte, `GONE` for a byte that is no card letter.
const CARD_OF_BYTE: [Card; 256] = {
    let mut table = [GONE; 256];
    let mut k = 0;
    while k < CARD_LETTERS.len() {
        table[CARD_LETTERS[k] as usize] = k as Card;
        k += 1;
    }
    table
};

fn card(token: &[u8]) -> Option<Card> {
    match token {
        [b] if CARD_OF_BYTE[*b as usize] != GONE => Some(CARD_OF_BYTE[*b as usize]),
        _ => None,
    }
}

/// The three roles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// 主猪 MP
    Main,
    /// 忠猪 ZP
    Loyal,
    /// 反猪 FP
    Rebel,
}

impl Role {
    fn name(self) -> &'static str {
        match self {
            Role::Main => "MP",
            Role::Loyal => "ZP",
            Role::Rebel => "FP",
        }
    }
}

/// The parsed input.
struct Setup {
    roles: Vec<Role>,
    hands: Vec<[Card; 4]>,
    deck: Vec<Card>,
}

/// The statement's limits, written once: `parse` checks them and `HELP`
/// states them (macros, as `concat!` takes only literals).
macro_rules! limit {
    (min_pigs) => {
        2
    };
    (max_pigs) => {
        10
    };
    (min_cards) => {
        1
    };
    (max_cards) => {
        2000
    };
}

/// Reads the input: `n m`, n times a role and 4 cards, m deck cards; the
/// rest is ignored, or with `strict` must be one line end.
fn parse(input: &[u8], strict: bool) -> Result<Setup, Failure> {
    let mut r = Reader { input, at: 0, strict };
    let n = r.number(Gap::Start, Want::PigCount, limit!(min_pigs), limit!(max_pigs))?;
    let m = r.number(Gap::Space, Want::DeckSize, limit!(min_cards), limit!(max_cards))?;

    let mut roles = Vec::with_capacity(n);
    let mut hands = Vec::with_capacity(n);
    for pig in 1..=n {
        let t = r.token(Gap::LineEnd, Want::Role(pig))?;
        let role = match t {
            b"MP" => Role::Main,
            b"ZP" => Role::Loyal,
            b"FP" => Role::Rebel,
            _ => {
                return r.bad_token(
                    t,
                    format!("pig {}: unknown role {} (expected MP, ZP or FP)", pig, shown(t)),
                )
            }
        };
        // 编号为 1 的肯定是主猪; 主猪有且只有 1 只.
        if pig == 1 && role != Role::Main {
            return r.bad_token(t, format!("pig 1 must be MP, found {}", shown(t)));
        }
        if pig != 1 && role == Role::Main {
            return r.bad_token(t, format!("pig {pig} is MP, but only pig 1 may be MP"));
        }
        let mut hand = [0; 4];
        for (k, slot) in hand.iter_mut().enumerate() {
            let t = r.token(Gap::Space, Want::Card { pig, k: k + 1 })?;
            *slot = match card(t) {
                Some(c) => c,
                None => return r.bad_token(t, format!("pig {}: {}", pig, unknown_card(t))),
            };
        }
        roles.push(role);
        hands.push(hand);
    }

    let mut deck = Vec::with_capacity(m);
    for k in 1..=m {
        let gap = if k == 1 { Gap::LineEnd } else { Gap::Space };
        let t = r.token(gap, Want::Deck { k, m })?;
        match card(t) {
            Some(c) => deck.push(c),
            None => return r.bad_token(t, format!("deck card {}: {}", k, unknown_card(t))),
        }
    }
    // Accepted solutions stop reading here; `--strict` wants one line end.
    if strict {
        r.token(Gap::LineEnd, Want::End(m))?;
    }
    Ok(Setup { roles, hands, deck })
}

fn unknown_card(token: &[u8]) -> String {
    format!("unknown card {} (expected one of P K D F N W J Z)", shown(token))
}

// ---- model ------------------------------------------------------------------

const NIL: u32 = u32::MAX;
const GONE: Card = 0xff;

/// One slot of a hand: a card, or `GONE` once it has left the hand.
#[derive(Clone, Copy)]
struct Slot {
    card: Card,
    /// The next slot holding the same kind of card, or `NIL`.
    next: u32,
}

/// A hand (手牌): cards in left-to-right order. Cards only ever join at the
/// right end and leave as "the leftmost card of kind k" (every rule picks the
/// leftmost usable card, and usability depends on the kind only), so each kind
/// keeps a linked list of its slots and every operation is O(1).
#[derive(Clone)]
struct Hand {
    slots: Vec<Slot>,
    first: [u32; 8],
    last: [u32; 8],
}

impl Hand {
    fn new() -> Hand {
        Hand { slots: Vec::new(), first: [NIL; 8], last: [NIL; 8] }
    }

    fn push(&mut self, c: Card) {
        let at = self.slots.len() as u32;
        self.slots.push(Slot { card: c, next: NIL });
        let k = c as usize;
        if self.last[k] == NIL {
            self.first[k] = at;
        } else {
            self.slots[self.last[k] as usize].next = at;
        }
        self.last[k] = at;
    }

    fn has(&self, c: Card) -> bool {
        self.first[c as usize] != NIL
    }

    /// Position of the leftmost card of kind `c` (`NIL` if none).
    fn leftmost(&self, c: Card) -> u32 {
        self.first[c as usize]
    }

    /// Removes the leftmost card of kind `c`; false if there is none.
    fn take(&mut self, c: Card) -> bool {
        let k = c as usize;
        let at = self.first[k];
        if at == NIL {
            return false;
        }
        let slot = &mut self.slots[at as usize];
        slot.card = GONE;
        self.first[k] = slot.next;
        if slot.next == NIL {
            self.last[k] = NIL;
        }
        true
    }

    fn clear(&mut self) {
        self.slots.clear();
        self.first = [NIL; 8];
        self.last = [NIL; 8];
    }

    fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.slots.iter().map(|s| s.card).filter(|&c| c != GONE)
    }
}

/// A pig (猪) and everything the others know about it.
#[derive(Clone)]
struct Pig {
    role: Role,
    hp: i32,
    alive: bool,
    /// 跳忠 / 跳反: the pig has shown its role (MP is known from the start).
    revealed: bool,
    /// 类反猪: MP's suspicion (see `Game::area_attack`).
    suspected: bool,
    /// A 猪哥连弩 is equipped.
    crossbow: bool,
    hand: Hand,
}

const MAX_HP: i32 = 4;

/// The game. With `TRACE` (`--trace`) every event is also written to `log`
/// as one line (see `trace!`); without it the trace code is compiled out,
/// so the judge path is the plain simulation.
struct Game<const TRACE: bool> {
    pigs: Vec<Pig>,
    deck: Vec<Card>,
    /// Next deck card to draw; `>= deck.len()` once the deck is exhausted.
    top: usize,
    rebels_alive: usize,
    winner: Option<Role>,
    /// Number of state-changing events so far: every card leaving a hand,
    /// except equipping a crossbow while already holding one. Drives the
    /// never-ending-game detector (see `run`).
    events: u64,
    /// `--trace` lines not yet written out.
    log: Vec<u8>,
}

/// `--trace`: one event line in `Game::log`, nothing at all without
/// `TRACE`. The format is stable, one line per event (the table is in
/// docs/zhuguosha.md, "Trace"): a keyword (turn, draw, play, reveal, mark,
/// unmark, negate, answer, damage, peach, death, rule, end), then pig
/// numbers 1..n, card letters of the input format and hp values, as each
/// call says.
macro_rules! trace {
    ($game:expr, $($format:tt)*) => {
        if TRACE {
            let _ = writeln!($game.log, $($format)*);
        }
    };
}

fn letter(c: Card) -> char {
    CARD_LETTERS[c as usize] as char
}

// ---- rules ------------------------------------------------------------------

impl<const TRACE: bool> Game<TRACE> {
    fn new(setup: &Setup) -> Self {
        let pigs = setup
            .roles
            .iter()
            .zip(&setup.hands)
            .map(|(&role, cards)| {
                let mut hand = Hand::new();
                for &c in cards {
                    hand.push(c);
                }
                Pig {
                    role,
                    hp: MAX_HP,
                    alive: true,
                    revealed: role == Role::Main,
                    suspected: false,
                    crossbow: false,
                    hand,
                }
            })
            .collect::<Vec<_>>();
        let rebels_alive = pigs.iter().filter(|p| p.role == Role::Rebel).count();
        let mut game = Game {
            pigs,
            deck: setup.deck.clone(),
            top: 0,
            rebels_alive,
            // MP wins "自己存活的情况下消灭所有的反猪": with no rebel at all
            // that holds before the first turn, and "一旦达成胜利条件，游戏立刻
            // 结束". Reading: such a game ends at once with the initial hands.
            winner: if rebels_alive == 0 { Some(Role::Main) } else { None },
            events: 0,
            log: Vec::new(),
        };
        if game.winner.is_some() {
            trace!(game, "end MP");
        }
        game
    }

    /// `--trace`: the last `count` cards of `p`'s hand, as letters.
    fn newest(&self, p: usize, count: usize) -> String {
        let slots = &self.pigs[p].hand.slots;
        let cards = slots[slots.len() - count..].iter().map(|s| letter(s.card));
        cards.map(String::from).collect::<Vec<_>>().join(" ")
    }

    /// The next living pig after `p` in turn order (逆时针).
    fn next_alive(&self, p: usize) -> usize {
        let n = self.pigs.len();
        let mut q = if p + 1 == n { 0 } else { p + 1 };
        while !self.pigs[q].alive {
            q = if q + 1 == n { 0 } else { q + 1 };
        }
        q
    }

    /// "由于数据问题，若牌堆已空，按照每次抽牌抽到的都是最后一张": once the
    /// deck is exhausted, every draw is a copy of its last card.
    fn draw(&mut self, p: usize, count: usize) {
        for _ in 0..count {
            let c = if self.top < self.deck.len() {
                self.top += 1;
                self.deck[self.top - 1]
            } else {
                self.deck[self.deck.len() - 1]
            };
            self.pigs[p].hand.push(c);
        }
    }

    /// Pig `p` gives up the leftmost card of kind `c`, if it has one.
    fn spend(&mut self, p: usize, c: Card) -> bool {
        if self.pigs[p].hand.take(c) {
            self.events += 1;
            true
        } else {
            false
        }
    }

    /// 跳忠 / 跳反: showing hostility or courtesy reveals the pig's true role
    /// (loyal pigs never jump rebel and vice versa, so the role shown is
    /// always the true one), and MP forgets its 类反猪 suspicion.
    fn reveal(&mut self, p: usize) {
        if TRACE && !self.pigs[p].revealed {
            trace!(self, "reveal {} {}", p + 1, self.pigs[p].role.name());
            if self.pigs[p].suspected {
                trace!(self, "unmark {}", p + 1);
            }
        }
        self.pigs[p].revealed = true;
        self.pigs[p].suspected = false;
    }

    /// Would pig `p` show hostility (表敌意) to pig `t`? This is what `p`
    /// knows about `t`, not what `t` really is.
    fn hostile(&self, p: usize, t: usize) -> bool {
        let target = &self.pigs[t];
        match self.pigs[p].role {
            // 对逆时针方向能够执行到的第一只类反猪或者已跳反猪表
            Role::Main => target.suspected || (target.revealed && target.role == Role::Rebel),
            // 对「逆时针方向能够执行到的第一只已经跳反的猪」表
            Role::Loyal => target.revealed && target.role == Role::Rebel,
            // 如果有机会则对主猪表，否则对「…第一只已经跳忠的猪」表
            Role::Rebel => {
                target.role == Role::Main || (target.revealed && target.role == Role::Loyal)
            }
        }
    }

    /// Would pig `p` show courtesy (献殷勤) to pig `t`? "不会对未表明身份的
    /// 猪献殷勤（包括自己）": only known pigs are helped; MP is known to all,
    /// so MP helps itself ("如果能对已经跳忠的猪或自己献殷勤，那么一定献").
    fn friendly(&self, p: usize, t: usize) -> bool {
        let target = &self.pigs[t];
        if !target.revealed {
            return false;
        }
        match self.pigs[p].role {
            Role::Main | Role::Loyal => target.role != Role::Rebel,
            Role::Rebel => target.role == Role::Rebel,
        }
    }

    /// The target of `p`'s 杀, if `p` wants to use one: "杀的攻击范围都是 1",
    /// so only the next living pig can be hit.
    fn kill_target(&self, p: usize) -> Option<usize> {
        let t = self.next_alive(p);
        if t != p && self.hostile(p, t) {
            Some(t)
        } else {
            None
        }
    }

    /// The target of `p`'s 决斗 (any range): the first pig in turn order after
    /// `p` that `p` is hostile to. A rebel is hostile to MP, who is always
    /// alive while the game runs, so "如果有机会则对主猪表" means a rebel
    /// always duels MP.
    fn duel_target(&self, p: usize) -> Option<usize> {
        if self.pigs[p].role == Role::Rebel {
            return Some(0);
        }
        let mut t = self.next_alive(p);
        while t != p {
            if self.hostile(p, t) {
                return Some(t);
            }
            t = self.next_alive(t);
        }
        None
    }

    /// One point of damage to `victim`, caused by `source` (伤害来源).
    fn damage(&mut self, victim: usize, source: usize) {
        self.pigs[victim].hp -= 1;
        trace!(self, "damage {} by {} hp {}", victim + 1, source + 1, self.pigs[victim].hp);
        // "如果该玩家的体力降到 0 或者更低，并且自己手中没有足够的桃使得自己的
        // 体力值回到 1，那么就死亡了": a dying pig eats peaches (in or out of
        // its turn) until it is back at 1.
        while self.pigs[victim].hp <= 0 && self.spend(victim, PEACH) {
            self.pigs[victim].hp += 1;
            trace!(self, "peach {} hp {}", victim + 1, self.pigs[victim].hp);
        }
        if self.pigs[victim].hp <= 0 {
            self.die(victim, source);
        }
    }

    fn die(&mut self, victim: usize, source: usize) {
        let pig = &mut self.pigs[victim];
        pig.alive = false;
        pig.hand.clear();
        pig.crossbow = false;
        let role = pig.role;
        let (who, by) = (victim + 1, source + 1);
        match role {
            Role::Main => {
                trace!(self, "death {who} MP by {by}");
                self.winner = Some(Role::Rebel);
                trace!(self, "end FP");
            }
            Role::Rebel => {
                self.rebels_alive -= 1;
                if self.rebels_alive == 0 {
                    // "一旦达成胜利条件，游戏立刻结束，因此即使会摸 3 张牌…也不用
                    // 执行了": no reward for the last rebel.
                    trace!(self, "death {who} FP by {by}");
                    self.winner = Some(Role::Main);
                    trace!(self, "end MP");
                } else {
                    // "反猪死亡时，最后一个伤害来源处（即使是反猪）立即摸 3 张牌".
                    self.draw(source, 3);
                    trace!(self, "death {} FP by {} reward {}", who, by, self.newest(source, 3));
                }
            }
            Role::Loyal => {
                // "忠猪死亡时，如果最后一个伤害来源是主猪，那么主猪所有装备牌、
                // 手牌被弃置". Reading: only the cards go; if this happens
                // in MP's own turn, the turn goes on (rewards may refill it).
                if self.pigs[source].role == Role::Main {
                    self.pigs[source].hand.clear();
                    self.pigs[source].crossbow = false;
                    trace!(self, "death {who} ZP by {by} penalty");
                } else {
                    trace!(self, "death {who} ZP by {by}");
                }
            }
        }
    }

    /// The 无懈可击 exchange over a trick about to take effect on `target`,
    /// used by `user` (`trick` is its kind, for the trace). Returns true if
    /// the trick is cancelled.
    ///
    /// "每次有 1 张锦囊即将生效时，从使用这张锦囊的猪开始，按照逆时针顺序，依次
    /// 得到使用无懈可击的机会" — and 无懈可击 is itself a 锦囊. Reading: the
    /// first 无懈可击 is courtesy to `target` (挡下南猪入侵、万箭齐发、决斗);
    /// the pigs are asked in turn order starting from `user`, and the first
    /// willing pig holding one plays it (and reveals itself). That card is in
    /// turn about to take effect, so the pigs are asked again starting from
    /// the pig who played it, now for hostility to `target` (抵消献殷勤 is
    /// 表敌意), and so on alternately. The trick is cancelled iff an odd
    /// number of 无懈可击 were played. (The chain's courtesy and hostility are
    /// towards `target`; the pig who played the card being countered is on
    /// the same side and revealed, so it makes no difference.)
    fn negated(&mut self, user: usize, target: usize, trick: Card) -> bool {
        let mut from = user;
        let mut courtesy = true;
        let mut played = 0u32;
        let mut countered = trick;
        'chain: loop {
            let mut p = from;
            loop {
                let willing =
                    if courtesy { self.friendly(p, target) } else { self.hostile(p, target) };
                if willing && self.spend(p, NEGATE) {
                    let side = if courtesy { "protecting" } else { "against" };
                    trace!(
                        self,
                        "negate {} counters {} of {} {} {}",
                        p + 1,
                        letter(countered),
                        from + 1,
                        side,
                        target + 1
                    );
                    countered = NEGATE;
                    self.reveal(p);
                    played += 1;
                    from = p;
                    courtesy = !courtesy;
                    continue 'chain;
                }
                p = self.next_alive(p);
                if p == from {
                    break 'chain;
                }
            }
        }
        played % 2 == 1
    }

    /// `user` plays 杀 on `target`: "受到杀时，有闪必然弃置".
    fn kill(&mut self, user: usize, target: usize) {
        self.reveal_if_hostile(user);
        if self.spend(target, DODGE) {
            trace!(self, "answer {} D", target + 1);
        } else {
            self.damage(target, user);
        }
    }

    /// Using 杀 or 决斗 on a pig is 表敌意: a loyal or rebel pig reveals itself
    /// ("能够跳必然跳"); MP is known anyway.
    fn reveal_if_hostile(&mut self, user: usize) {
        if self.pigs[user].role != Role::Main {
            self.reveal(user);
        }
    }

    /// `user` plays 决斗 on `target`.
    fn duel(&mut self, user: usize, target: usize) {
        self.reveal_if_hostile(user);
        if self.negated(user, target, DUEL) {
            return;
        }
        // "决斗时，如果对方是主猪，那么不会弃置杀": a loyal pig dueled by MP
        // (only ever as a suspect) takes the damage without a fight.
        if self.pigs[user].role == Role::Main && self.pigs[target].role == Role::Loyal {
            self.damage(target, user);
            return;
        }
        // "由目标角色先开始，自己和目标角色轮流弃置 1 张杀，首先没有杀可弃的一方
        // 受到 1 点伤害，另一方视为此伤害的来源". Everybody else "不遗余力".
        let (mut turn, mut other) = (target, user);
        while self.spend(turn, KILL) {
            trace!(self, "answer {} K", turn + 1);
            std::mem::swap(&mut turn, &mut other);
        }
        self.damage(turn, other);
    }

    /// `user` plays 南猪入侵 (answered with 杀) or 万箭齐发 (answered with 闪):
    /// "按逆时针顺序从使用者下家开始依次结算".
    fn area_attack(&mut self, user: usize, answer: Card) {
        let trick = if answer == KILL { INVASION } else { ARROWS };
        let mut t = self.next_alive(user);
        while t != user && self.winner.is_none() {
            // Each target is settled separately; a 无懈可击 protects only it.
            if self.negated(user, t, trick) {
                // Cancelled for `t`: nothing to answer, no damage.
            } else if self.spend(t, answer) {
                trace!(self, "answer {} {}", t + 1, letter(answer));
            } else {
                // 类反猪: "没有跳身份，且用南猪入侵 / 万箭齐发对自己造成伤害的猪"
                // (没伤害到不算). Reading: the label is set when MP takes the
                // damage, only on a pig that has not revealed itself.
                if self.pigs[t].role == Role::Main && !self.pigs[user].revealed {
                    if !self.pigs[user].suspected {
                        trace!(self, "mark {}", user + 1);
                    }
                    self.pigs[user].suspected = true;
                }
                self.damage(t, user);
            }
            // `t` is alive or just died; `next_alive` still walks on from it.
            t = self.next_alive(t);
        }
    }

    /// Pig `me`'s turn: draw 2, then play cards.
    ///
    /// "每次使用牌的时候都使用最靠左的能够使用的牌": after every card used the
    /// hand is looked at afresh, from the left, so cards drawn mid-turn (a
    /// reward) are playable in the same turn. Whether a card can be used
    /// depends only on its kind and the state, so the leftmost usable card is
    /// the leftmost among the kinds usable now.
    fn take_turn(&mut self, me: usize) {
        self.draw(me, 2);
        trace!(self, "draw {} {}", me + 1, self.newest(me, 2));
        // "如果没有猪哥连弩，每个出牌阶段只能使用 1 次「杀」".
        let mut killed = false;
        while self.winner.is_none() && self.pigs[me].alive {
            let pig = &self.pigs[me];
            let hand = &pig.hand;
            let mut best = NIL;
            let mut kind = GONE;
            let mut consider = |c: Card, usable: bool| {
                let at = hand.leftmost(c);
                if at < best && usable {
                    best = at;
                    kind = c;
                }
            };
            // 桃: only "如果自己的体力值不等于体力上限".
            consider(PEACH, pig.hp < MAX_HP);
            if hand.has(KILL) && (pig.crossbow || !killed) {
                consider(KILL, self.kill_target(me).is_some());
            }
            if hand.has(DUEL) {
                consider(DUEL, self.duel_target(me).is_some());
            }
            // "有南猪入侵、万箭齐发、必然使用；有装备必然装上": always usable;
            // a second crossbow replaces the first.
            consider(INVASION, true);
            consider(ARROWS, true);
            consider(CROSSBOW, true);
            // 闪 and 无懈可击 are only ever answers.
            match kind {
                PEACH => {
                    self.spend(me, PEACH);
                    self.pigs[me].hp += 1;
                    trace!(self, "play {} P hp {}", me + 1, self.pigs[me].hp);
                }
                KILL => {
                    let t = self.kill_target(me).unwrap_or(me);
                    self.spend(me, KILL);
                    killed = true;
                    trace!(self, "play {} K on {}", me + 1, t + 1);
                    self.kill(me, t);
                }
                DUEL => {
                    let t = self.duel_target(me).unwrap_or(me);
                    self.spend(me, DUEL);
                    trace!(self, "play {} F on {}", me + 1, t + 1);
                    self.duel(me, t);
                }
                INVASION => {
                    self.spend(me, INVASION);
                    trace!(self, "play {} N", me + 1);
                    self.area_attack(me, KILL);
                }
                ARROWS => {
                    self.spend(me, ARROWS);
                    trace!(self, "play {} W", me + 1);
                    self.area_attack(me, DODGE);
                }
                CROSSBOW => {
                    trace!(self, "play {} Z", me + 1);
                    self.pigs[me].hand.take(CROSSBOW);
                    if !self.pigs[me].crossbow {
                        self.events += 1;
                        self.pigs[me].crossbow = true;
                    }
                }
                _ => {
                    // The limit leaves no event: the trace says it held a 杀 back.
                    let limited = killed && !pig.crossbow && hand.has(KILL);
                    if TRACE && limited && self.kill_target(me).is_some() {
                        trace!(self, "rule kill-limit {}", me + 1);
                    }
                    break;
                }
            }
        }
    }

    /// Plays the game to its end; with `TRACE` the log is then written to
    /// `sink` (also for a game that never ends, before the failure).
    ///
    /// Never-ending games. A random deck can describe a game that never ends
    /// (the judge's data never do). Criterion: the deck is already exhausted
    /// when a turn starts, and `k` consecutive such turns, where `k` is the
    /// number of living pigs (a full round), pass without any event — no card
    /// leaves any hand except a crossbow equipped by a pig that already holds
    /// one (every other change of state comes with a card leaving a hand).
    ///
    /// Sound: a quiet round leaves every state that decides what can be
    /// used unchanged and each hand's card kinds the same, so the next round
    /// is quiet too, forever. Complete: once the deck is exhausted every event
    /// uses up something finite, so events stop. So the detector fires
    /// exactly on the games that never end, at most one round after the last
    /// event (the proof in full: docs/zhuguosha.md, "Never-ending games").
    fn run(&mut self, sink: &mut dyn Write) -> Result<(), Failure> {
        let result = self.play();
        self.write_log(sink)?;
        result
    }

    fn write_log(&mut self, sink: &mut dyn Write) -> Result<(), Failure> {
        if TRACE {
            sink.write_all(&self.log).and_then(|()| sink.flush()).map_err(unwritable)?;
            self.log.clear();
        }
        Ok(())
    }

    fn play(&mut self) -> Result<(), Failure> {
        let mut me = 0;
        let mut quiet_turns = 0usize;
        let mut turn = 0u64;
        while self.winner.is_none() {
            turn += 1;
            let exhausted = self.top >= self.deck.len();
            let before = self.events;
            if TRACE {
                let pig = &self.pigs[me];
                let weapon = if pig.crossbow { "yes" } else { "no" };
                let mut line = format!(
                    "turn {} pig {} {} hp {} weapon {} hand",
                    turn,
                    me + 1,
                    pig.role.name(),
                    pig.hp,
                    weapon
                );
                for c in pig.hand.cards() {
                    line.push(' ');
                    line.push(letter(c));
                }
                trace!(self, "{line}");
            }
            self.take_turn(me);
            if self.winner.is_some() {
                break;
            }
            if exhausted && self.events == before {
                quiet_turns += 1;
                let living = self.pigs.iter().filter(|p| p.alive).count();
                if quiet_turns >= living {
                    let last = self.deck[self.deck.len() - 1] as usize;
                    return Err(Failure::NoExactAnswer(format!(
                        "the game does not end: the deck is exhausted (every draw is '{}') and a full round of {} turns \
                         up to turn {} changed nothing",
                        CARD_LETTERS[last] as char, living, turn
                    )));
                }
            } else {
                quiet_turns = 0;
            }
            me = self.next_alive(me);
        }
        Ok(())
    }
}

// ---- output -----------------------------------------------------------------

/// Parses `input`, plays the game and writes the result to `out` (and with
/// `--trace` the events to `trace`).
pub fn solve(
    input: Vec<u8>,
    options: &Options,
    out: &mut impl Write,
    trace: &mut impl Write,
) -> Result<(), Failure> {
    let setup = parse(&input, options.strict)?;
    let text = if options.trace {
        simulate::<true>(&setup, trace)?
    } else {
        simulate::<false>(&setup, trace)?
    };
    out.write_all(&text).map_err(unwritable)
}

/// The statement's output: the winner, then each pig's hand or `DEAD`.
fn simulate<const TRACE: bool>(setup: &Setup, trace: &mut dyn Write) -> Result<Vec<u8>, Failure> {
    let mut game = Game::<TRACE>::new(setup);
    game.run(trace)?;
    let mut text = Vec::with_capacity(64);
    text.extend_from_slice(match game.winner {
        Some(Role::Main) => b"MP\n",
        _ => b"FP\n",
    });
    for pig in &game.pigs {
        if !pig.alive {
            text.extend_from_slice(b"DEAD\n");
            continue;
        }
        for (i, c) in pig.hand.cards().enumerate() {
            if i > 0 {
                text.push(b' ');
            }
            text.push(CARD_LETTERS[c as usize]);
        }
        text.push(b'\n');
    }
    Ok(text)
}

// ---- command line -----------------------------------------------------------

const BIN: &str = "zhuguosha";

const HELP: &str = concat!(
    "\
zhuguosha: simulate a game of [SDOI2010] 猪国杀 (Luogu P2482, LOJ 2885).
usage:   zhuguosha [options] < input
input:   n m (",
    limit!(min_pigs),
    "..",
    limit!(max_pigs),
    " pigs, ",
    limit!(min_cards),
    "..",
    limit!(max_cards),
    " cards); n times 'ROLE c1 c2 c3 c4' (ROLE MP,
         ZP or FP; pig 1 is MP); then the m deck cards, top first. Cards: P K
         D F N W J Z. Read like C++ cin: any whitespace separates tokens, and
         whatever follows the m-th deck card is ignored.
output:  MP or FP (the winner), then each pig's hand left to right, or DEAD.
options: --strict    also check the exact layout, and stop at the first
                     deviation with 'line L column C: ...' (C counts
                     characters from 1): 'n m', one line per pig, one line
                     of m deck cards; single spaces between tokens, none at
                     either end of a line; no blank line, no leading zero, a
                     final newline (LF or CRLF, as every line may), nothing
                     after.
         --trace     also write the game's events to stderr, one line each
                     (docs/zhuguosha.md): turn, draw, play, reveal, mark,
                     unmark, negate, answer, damage, peach, death, rule,
                     end; pigs numbered 1..n, cards as in the input.
         --validate  as --strict, writing nothing: exit 42 if the input is
                     valid (also if the game never ends), 43 and the line if
                     not (a Kattis input validator)
         --help      print this help and exit
exit:    0 ok, 1 unreadable input or unwritable output, 2 bad input or
         argument, 3 the game never ends.
"
);

/// The command-line options, one field each.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `--strict`: check the statement's exact layout too.
    pub strict: bool,
    /// `--trace`: every event of the game to stderr.
    pub trace: bool,
}

impl Options {
    /// Sets option `name` (`false`: no such option).
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
#[path = "../../tests/unit/zhuguosha.rs"]
mod tests;
