//! [SDOI2010] 猪国杀 (Luogu P2482, LOJ 2885): simulate a game of "Pig Kill".
//!
//! Input (stdin): a line `n m` (2 <= n <= 10 pigs, 1 <= m <= 2000 deck cards);
//! then n lines `ROLE c1 c2 c3 c4` (role MP, ZP or FP; pig 1 is the only MP;
//! each c is one of the cards P K D F N W J Z); then the m deck cards from top
//! to bottom. Tokens may be separated by any run of spaces, tabs or `\r`
//! (so CRLF input reads like LF), blank lines are skipped, and the deck may be
//! wrapped over several lines. Anything after the m-th deck card is an error.
//!
//! Output (stdout): `MP` or `FP` (the winner), then for every pig its hand from
//! left to right separated by single spaces, an empty line for a living pig
//! without cards, or `DEAD`.
//!
//! Exit codes: 0 the game was simulated; 2 bad input or a bad argument (one
//! line `zhuguosha: line L: <what>` on stderr); 3 the input is valid but the
//! game never ends (possible with random decks, see `Game::run`): one line
//! `zhuguosha: the game does not end: ...` on stderr and nothing on stdout.
//!
//! Complexity: every card use costs O(n) (the hand keeps, per card kind, a
//! linked list of its cards in hand order, so "the leftmost usable card" is a
//! minimum over 8 list heads, never a scan of the hand). The whole run is
//! linear in the number of card moves, and a never-ending game is cut off
//! after one quiet round once the deck is exhausted. No input can make the
//! program allocate more than that.

use std::fmt;
use std::io::{self, Read, Write};

// ---------------------------------------------------------------- input ----

/// Why a run produced no (complete) answer.
#[derive(Debug, PartialEq, Eq)]
enum Failure {
    /// Bad input: 1-based line number and what is wrong (exit code 2).
    BadInput(usize, String),
    /// Valid input, but the game cannot end (exit code 3).
    NeverEnds(String),
    /// Writing the answer failed.
    Io(String),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::BadInput(line, what) => write!(f, "line {}: {}", line, what),
            Failure::NeverEnds(why) => write!(f, "the game does not end: {}", why),
            Failure::Io(e) => write!(f, "cannot write the output: {}", e),
        }
    }
}

fn bad<T>(line: usize, what: String) -> Result<T, Failure> {
    Err(Failure::BadInput(line, what))
}

/// A token for an error message: printable ASCII as is, other bytes as
/// `\xNN`, cut after 16 bytes.
fn shown(token: &[u8]) -> String {
    let mut s = String::new();
    for &b in token.iter().take(16) {
        if (0x21..0x7f).contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("\\x{:02X}", b));
        }
    }
    if token.len() > 16 {
        s.push_str("...");
    }
    format!("'{}'", s)
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
}

/// Splits the input into numbered, non-blank lines and lines into tokens,
/// without allocating.
struct Lines<'a> {
    rest: &'a [u8],
    number: usize,
}

impl<'a> Lines<'a> {
    /// The next line holding at least one token, with its 1-based number.
    fn next_nonblank(&mut self) -> Option<(usize, Tokens<'a>)> {
        while !self.rest.is_empty() {
            let end = self
                .rest
                .iter()
                .position(|&b| b == b'\n')
                .unwrap_or(self.rest.len());
            let line = &self.rest[..end];
            self.rest = &self.rest[(end + 1).min(self.rest.len())..];
            self.number += 1;
            if !line.iter().all(|&b| is_blank(b)) {
                return Some((self.number, Tokens { rest: line }));
            }
        }
        None
    }
}

struct Tokens<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a [u8];
    fn next(&mut self) -> Option<&'a [u8]> {
        let start = self.rest.iter().position(|&b| !is_blank(b))?;
        let rest = &self.rest[start..];
        let end = rest.iter().position(|&b| is_blank(b)).unwrap_or(rest.len());
        self.rest = &rest[end..];
        Some(&rest[..end])
    }
}

/// A whole number in `lo..=hi`; `None` for anything else (signs, letters,
/// overlong digit strings).
fn number(token: &[u8], lo: usize, hi: usize) -> Option<usize> {
    if token.is_empty() || token.len() > 9 || !token.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let v = token
        .iter()
        .fold(0usize, |v, &d| v * 10 + usize::from(d - b'0'));
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

fn card(token: &[u8], line: usize) -> Result<Card, Failure> {
    if token.len() == 1 {
        if let Some(k) = CARD_LETTERS.iter().position(|&c| c == token[0]) {
            return Ok(k as Card);
        }
    }
    bad(
        line,
        format!(
            "unknown card {} (expected one of P K D F N W J Z)",
            shown(token)
        ),
    )
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

/// The parsed input.
struct Setup {
    roles: Vec<Role>,
    hands: Vec<[Card; 4]>,
    deck: Vec<Card>,
}

fn parse(input: &[u8]) -> Result<Setup, Failure> {
    let mut lines = Lines {
        rest: input,
        number: 0,
    };
    let (line, mut tokens) = match lines.next_nonblank() {
        Some(l) => l,
        None => {
            return bad(
                lines.number + 1,
                "expected the pig count n and the deck size m, found end of input".into(),
            )
        }
    };
    let (tn, tm) = match (tokens.next(), tokens.next(), tokens.next()) {
        (Some(a), Some(b), None) => (a, b),
        (_, _, Some(t)) => {
            return bad(
                line,
                format!("expected two numbers 'n m', found extra token {}", shown(t)),
            )
        }
        _ => return bad(line, "expected two numbers 'n m', found one token".into()),
    };
    let n = match number(tn, 2, 10) {
        Some(n) => n,
        None => {
            return bad(
                line,
                format!("n must be a whole number from 2 to 10, found {}", shown(tn)),
            )
        }
    };
    let m = match number(tm, 1, 2000) {
        Some(m) => m,
        None => {
            return bad(
                line,
                format!(
                    "m must be a whole number from 1 to 2000, found {}",
                    shown(tm)
                ),
            )
        }
    };

    let mut roles = Vec::with_capacity(n);
    let mut hands = Vec::with_capacity(n);
    for pig in 1..=n {
        let (line, tokens) = match lines.next_nonblank() {
            Some(l) => l,
            None => {
                return bad(
                    lines.number + 1,
                    format!(
                        "expected pig {}'s line 'ROLE c1 c2 c3 c4', found end of input",
                        pig
                    ),
                )
            }
        };
        let mut got: [&[u8]; 5] = [&[]; 5];
        let mut count = 0;
        for t in tokens {
            if count == 5 {
                return bad(
                    line,
                    format!(
                        "pig {}: expected a role and 4 cards, found extra token {}",
                        pig,
                        shown(t)
                    ),
                );
            }
            got[count] = t;
            count += 1;
        }
        if count < 5 {
            return bad(
                line,
                format!(
                    "pig {}: expected a role and 4 cards, found only {} tokens",
                    pig, count
                ),
            );
        }
        let role = match got[0] {
            b"MP" => Role::Main,
            b"ZP" => Role::Loyal,
            b"FP" => Role::Rebel,
            t => {
                return bad(
                    line,
                    format!(
                        "pig {}: unknown role {} (expected MP, ZP or FP)",
                        pig,
                        shown(t)
                    ),
                )
            }
        };
        // 编号为 1 的肯定是主猪; 主猪有且只有 1 只.
        if pig == 1 && role != Role::Main {
            return bad(line, format!("pig 1 must be MP, found {}", shown(got[0])));
        }
        if pig != 1 && role == Role::Main {
            return bad(line, format!("pig {} is MP, but only pig 1 may be MP", pig));
        }
        let mut hand = [0; 4];
        for (slot, t) in hand.iter_mut().zip(&got[1..]) {
            *slot = card(t, line)?;
        }
        roles.push(role);
        hands.push(hand);
    }

    let deck_line = lines.number + 1;
    let mut deck = Vec::with_capacity(m);
    while deck.len() < m {
        let (line, tokens) = match lines.next_nonblank() {
            Some(l) => l,
            None => {
                return bad(
                    deck_line,
                    format!(
                        "the deck has only {} of the {} cards announced",
                        deck.len(),
                        m
                    ),
                )
            }
        };
        for t in tokens {
            if deck.len() == m {
                return bad(
                    line,
                    format!("extra token {} after the {} deck cards", shown(t), m),
                );
            }
            deck.push(card(t, line)?);
        }
    }
    if let Some((line, mut tokens)) = lines.next_nonblank() {
        let t = tokens.next().unwrap_or(&[]);
        return bad(
            line,
            format!("extra token {} after the {} deck cards", shown(t), m),
        );
    }
    Ok(Setup { roles, hands, deck })
}

// ---------------------------------------------------------------- model ----

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
        Hand {
            slots: Vec::new(),
            first: [NIL; 8],
            last: [NIL; 8],
        }
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

struct Game {
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
}

// ---------------------------------------------------------------- rules ----

impl Game {
    fn new(setup: &Setup) -> Game {
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
        Game {
            pigs,
            deck: setup.deck.clone(),
            top: 0,
            rebels_alive,
            // MP wins "自己存活的情况下消灭所有的反猪": with no rebel at all
            // that holds before the first turn, and "一旦达成胜利条件，游戏立刻
            // 结束". Reading: such a game ends at once with the initial hands.
            winner: if rebels_alive == 0 {
                Some(Role::Main)
            } else {
                None
            },
            events: 0,
        }
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
        // "如果该玩家的体力降到 0 或者更低，并且自己手中没有足够的桃使得自己的
        // 体力值回到 1，那么就死亡了": a dying pig eats peaches (in or out of
        // its turn) until it is back at 1.
        while self.pigs[victim].hp <= 0 && self.spend(victim, PEACH) {
            self.pigs[victim].hp += 1;
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
        match pig.role {
            Role::Main => self.winner = Some(Role::Rebel),
            Role::Rebel => {
                self.rebels_alive -= 1;
                if self.rebels_alive == 0 {
                    // "一旦达成胜利条件，游戏立刻结束，因此即使会摸 3 张牌…也不用
                    // 执行了": no reward for the last rebel.
                    self.winner = Some(Role::Main);
                } else {
                    // "反猪死亡时，最后一个伤害来源处（即使是反猪）立即摸 3 张牌".
                    self.draw(source, 3);
                }
            }
            Role::Loyal => {
                // "忠猪死亡时，如果最后一个伤害来源是主猪，那么主猪所有装备牌、
                // 手牌被弃置". Reading: only the cards go; if this happens
                // in MP's own turn, the turn goes on (rewards may refill it).
                if self.pigs[source].role == Role::Main {
                    self.pigs[source].hand.clear();
                    self.pigs[source].crossbow = false;
                }
            }
        }
    }

    /// The 无懈可击 exchange over a trick about to take effect on `target`,
    /// used by `user`. Returns true if the trick is cancelled.
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
    fn negated(&mut self, user: usize, target: usize) -> bool {
        let mut from = user;
        let mut courtesy = true;
        let mut played = 0u32;
        'chain: loop {
            let mut p = from;
            loop {
                let willing = if courtesy {
                    self.friendly(p, target)
                } else {
                    self.hostile(p, target)
                };
                if willing && self.spend(p, NEGATE) {
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
        self.reveal_if_hostile(user, target);
        if !self.spend(target, DODGE) {
            self.damage(target, user);
        }
    }

    /// Using 杀 or 决斗 on a pig is 表敌意: a loyal or rebel pig reveals itself
    /// ("能够跳必然跳"); MP is known anyway.
    fn reveal_if_hostile(&mut self, user: usize, _target: usize) {
        if self.pigs[user].role != Role::Main {
            self.reveal(user);
        }
    }

    /// `user` plays 决斗 on `target`.
    fn duel(&mut self, user: usize, target: usize) {
        self.reveal_if_hostile(user, target);
        if self.negated(user, target) {
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
            std::mem::swap(&mut turn, &mut other);
        }
        self.damage(turn, other);
    }

    /// `user` plays 南猪入侵 (answered with 杀) or 万箭齐发 (answered with 闪):
    /// "按逆时针顺序从使用者下家开始依次结算".
    fn area_attack(&mut self, user: usize, answer: Card) {
        let mut t = self.next_alive(user);
        while t != user && self.winner.is_none() {
            // Each target is settled separately; a 无懈可击 protects only it.
            if !self.negated(user, t) && !self.spend(t, answer) {
                // 类反猪: "没有跳身份，且用南猪入侵 / 万箭齐发对自己造成伤害的猪"
                // (没伤害到不算). Reading: the label is set when MP takes the
                // damage, only on a pig that has not revealed itself.
                if self.pigs[t].role == Role::Main && !self.pigs[user].revealed {
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
                }
                KILL => {
                    let t = self.kill_target(me).unwrap_or(me);
                    self.spend(me, KILL);
                    killed = true;
                    self.kill(me, t);
                }
                DUEL => {
                    let t = self.duel_target(me).unwrap_or(me);
                    self.spend(me, DUEL);
                    self.duel(me, t);
                }
                INVASION => {
                    self.spend(me, INVASION);
                    self.area_attack(me, KILL);
                }
                ARROWS => {
                    self.spend(me, ARROWS);
                    self.area_attack(me, DODGE);
                }
                CROSSBOW => {
                    self.pigs[me].hand.take(CROSSBOW);
                    if !self.pigs[me].crossbow {
                        self.events += 1;
                        self.pigs[me].crossbow = true;
                    }
                }
                _ => break,
            }
        }
    }

    /// Plays the game to its end.
    ///
    /// Never-ending games. A random deck can describe a game that never ends
    /// (the judge's data never do). Criterion: the deck is already exhausted
    /// when a turn starts, and `k` consecutive such turns, where `k` is the
    /// number of living pigs (a full round), pass without any event — no card
    /// leaves any hand except a crossbow equipped by a pig that already holds
    /// one. (Every change of health, life, revealed role, suspicion or weapon
    /// comes with a card leaving a hand, so "no event" means the state other
    /// than the hands is unchanged, and the hands only grew by copies of the
    /// last deck card `c` and possibly lost crossbows.)
    ///
    /// Sound (fires only on a game that cannot end): call the quiet round R
    /// and the next round R'. Whether a card can be used depends only on its
    /// kind and on the state outside the hands (health, life, revealed and
    /// suspected flags, weapons, the per-turn 杀 flag, which starts false and
    /// stays false in a quiet turn), which is the same throughout R and at
    /// the start of R'. Take pig j. At the end of its turn in R, the kinds K
    /// in its hand contain no usable kind (it stopped playing), and contain
    /// `c` unless `c` is the crossbow (it drew two `c` in R and losing one is
    /// an event). Between its two turns nothing touches its hand (no events).
    /// In R' it draws two more `c`: its kinds become K ∪ {c} = K, or, for
    /// `c` = crossbow, K plus crossbows, which it equips while already armed
    /// (it was armed in R, or equipping then would have been an event) and
    /// is left with K again. So R' is quiet too, and by induction every later
    /// round: no pig ever loses health again, and the game never ends.
    ///
    /// Complete (fires on every game that cannot end): such a game exhausts
    /// the deck (2 draws a turn), after which every drawn card is `c`, so the
    /// other cards in hands only get fewer. Each event after that point uses
    /// up something finite: a non-`c` card; or damage (health only returns
    /// through 桃, finite unless `c` = 桃, and then damage needs 杀, 决斗,
    /// 南猪入侵 or 万箭齐发, all finite then); 杀 = 闪 or damage, 决斗 = 无懈可击 or
    /// damage, 南猪入侵/万箭齐发 = per target 无懈可击, an answer card or damage,
    /// none of which is `c` when the trick is `c`; 闪 and 无懈可击 are only
    /// played in answer to finitely many cards, each answer chain being finite;
    /// 桃 needs lost health; a first crossbow per pig needs a weapon loss (a
    /// death). So events stop, and the next full round is quiet.
    ///
    /// Together: the detector fires exactly on the games that never end, at
    /// most one round after the last event.
    fn run(&mut self) -> Result<(), Failure> {
        let mut me = 0;
        let mut quiet_turns = 0usize;
        let mut turn = 0u64;
        while self.winner.is_none() {
            turn += 1;
            let exhausted = self.top >= self.deck.len();
            let before = self.events;
            self.take_turn(me);
            if self.winner.is_some() {
                break;
            }
            if exhausted && self.events == before {
                quiet_turns += 1;
                let living = self.pigs.iter().filter(|p| p.alive).count();
                if quiet_turns >= living {
                    let last = self.deck[self.deck.len() - 1] as usize;
                    return Err(Failure::NeverEnds(format!(
                        "the deck is exhausted (every draw is '{}') and a full round of {} turns \
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

// --------------------------------------------------------------- output ----

/// Parses `input`, plays the game and writes the result to `out`.
fn solve<W: Write>(input: &[u8], out: &mut W) -> Result<(), Failure> {
    let setup = parse(input)?;
    let mut game = Game::new(&setup);
    game.run()?;
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
    out.write_all(&text).map_err(|e| Failure::Io(e.to_string()))
}

const HELP: &str = "\
zhuguosha: [SDOI2010] 猪国杀 (Luogu P2482) simulator; reads stdin, writes stdout.
input:  n m (2..10 pigs, 1..2000 cards); n lines 'ROLE c1 c2 c3 c4' (ROLE MP/ZP/FP,
        pig 1 is MP); then the m deck cards, top first. Cards: P K D F N W J Z.
output: MP or FP (the winner), then each pig's hand left to right, or DEAD.
exit:   0 ok, 2 bad input or argument, 3 the game never ends.
";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(a) = args.first() {
        if a == "--help" || a == "-h" {
            print!("{}", HELP);
            return;
        }
        eprintln!(
            "zhuguosha: unknown argument '{}' (input is read from stdin; see --help)",
            a
        );
        std::process::exit(2);
    }
    let mut input = Vec::new();
    if let Err(e) = io::stdin().lock().read_to_end(&mut input) {
        eprintln!("zhuguosha: cannot read the input: {}", e);
        std::process::exit(2);
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result =
        solve(&input, &mut out).and_then(|()| out.flush().map_err(|e| Failure::Io(e.to_string())));
    if let Err(failure) = result {
        eprintln!("zhuguosha: {}", failure);
        std::process::exit(match failure {
            Failure::BadInput(..) => 2,
            Failure::NeverEnds(_) => 3,
            Failure::Io(_) => 1,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the solver; Ok(stdout) or Err(the failure).
    fn run(input: &str) -> Result<String, Failure> {
        let mut out = Vec::new();
        solve(input.as_bytes(), &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    fn ok(input: &str) -> String {
        run(input).unwrap_or_else(|f| panic!("unexpected failure: {}", f))
    }

    fn bad_line(input: &str) -> (usize, String) {
        match run(input) {
            Err(Failure::BadInput(line, what)) => (line, what),
            other => panic!("expected bad input, got {:?}", other),
        }
    }

    fn game(input: &str) -> Game {
        Game::new(&parse(input.as_bytes()).unwrap())
    }

    const SAMPLE: &str = "3 10\nMP D D F F\nZP N N N D\nFP J J J J\nF F D D J J F F K D\n";

    #[test]
    fn sample_from_the_statement() {
        assert_eq!(ok(SAMPLE), "FP\nDEAD\nDEAD\nJ J J J J J D\n");
    }

    #[test]
    fn crlf_tabs_blank_lines_and_wrapped_deck_read_like_the_sample() {
        let messy = "3  10\r\n\r\nMP D D F F \r\nZP\tN N N D\r\nFP J J J J\r\nF F D D J\r\nJ F F K D\r\n\r\n";
        assert_eq!(ok(messy), ok(SAMPLE));
    }

    #[test]
    fn hand_keeps_order_and_takes_leftmost_of_a_kind() {
        let mut h = Hand::new();
        for &c in &[KILL, DODGE, KILL, PEACH, KILL] {
            h.push(c);
        }
        assert_eq!(h.leftmost(KILL), 0);
        assert!(h.take(KILL));
        assert_eq!(h.leftmost(KILL), 2);
        assert!(h.take(PEACH));
        assert!(!h.take(PEACH));
        h.push(PEACH);
        assert_eq!(
            h.cards().collect::<Vec<_>>(),
            vec![DODGE, KILL, KILL, PEACH]
        );
        h.clear();
        assert_eq!(h.cards().count(), 0);
        assert!(!h.has(KILL));
    }

    #[test]
    fn empty_deck_repeats_its_last_card() {
        let mut g = game("2 2\nMP D D D D\nFP D D D D\nP K\n");
        g.draw(0, 5);
        let drawn: Vec<Card> = g.pigs[0].hand.cards().skip(4).collect();
        assert_eq!(drawn, vec![PEACH, KILL, KILL, KILL, KILL]);
    }

    #[test]
    fn kill_reaches_only_the_next_living_pig() {
        let mut g = game("3 1\nMP K K K K\nZP D D D D\nFP D D D D\nD\n");
        g.pigs[2].revealed = true;
        assert_eq!(
            g.kill_target(0),
            None,
            "a revealed rebel two seats away is out of range"
        );
        assert_eq!(g.duel_target(0), Some(2), "a duel has unlimited range");
        g.pigs[1].alive = false;
        assert_eq!(g.kill_target(0), Some(2), "deaths shorten distances");
    }

    #[test]
    fn rebel_duels_main_pig_even_past_a_revealed_loyal_pig() {
        let mut g = game("3 1\nMP D D D D\nFP F K D D\nZP D D D D\nD\n");
        g.pigs[2].revealed = true;
        assert_eq!(g.duel_target(1), Some(0));
        assert_eq!(g.kill_target(1), Some(2));
    }

    #[test]
    fn main_pig_targets_first_suspect_or_revealed_rebel_in_turn_order() {
        let mut g = game("4 1\nMP D D D D\nFP D D D D\nZP D D D D\nFP D D D D\nD\n");
        assert_eq!(g.duel_target(0), None);
        g.pigs[3].revealed = true;
        assert_eq!(g.duel_target(0), Some(3));
        g.pigs[2].suspected = true; // a loyal pig can be a 类反猪
        assert_eq!(g.duel_target(0), Some(2));
        assert_eq!(g.kill_target(0), None);
    }

    #[test]
    fn loyal_pig_is_hostile_only_to_revealed_rebels() {
        let mut g = game("3 1\nMP D D D D\nZP D D D D\nFP D D D D\nD\n");
        g.pigs[2].suspected = true;
        assert!(!g.hostile(1, 2), "MP's suspicion is not the loyal pig's");
        g.reveal(2);
        assert!(g.hostile(1, 2));
        assert!(!g.pigs[2].suspected, "revealing clears the suspicion");
    }

    #[test]
    fn nobody_helps_an_unrevealed_pig_not_even_itself_but_mp_helps_itself() {
        let mut g = game("3 1\nMP J D D D\nZP J D D D\nFP J D D D\nD\n");
        assert!(!g.friendly(1, 1));
        assert!(!g.friendly(2, 2));
        assert!(g.friendly(0, 0));
        assert!(g.friendly(1, 0));
        assert!(!g.friendly(2, 0));
        g.reveal(2);
        assert!(g.friendly(2, 2), "a revealed rebel helps itself");
        assert!(!g.friendly(0, 2));
    }

    #[test]
    fn wuxie_chain_alternates_and_cancels_on_an_odd_count() {
        // FP (2) duels MP: MP negates, FP counters, MP counters again.
        let mut g = game("2 1\nMP J J D D\nFP J D D D\nD\n");
        assert!(g.negated(1, 0));
        assert!(!g.pigs[0].hand.has(NEGATE));
        assert!(!g.pigs[1].hand.has(NEGATE));
        assert!(
            g.pigs[1].revealed,
            "countering a courtesy reveals the rebel"
        );
        // Even count: the trick takes effect.
        let mut g = game("2 1\nMP J D D D\nFP J D D D\nD\n");
        assert!(!g.negated(1, 0));
    }

    #[test]
    fn wuxie_chain_asks_pigs_from_the_user_of_the_countered_card() {
        // ZP 2 and ZP 3 both could help MP against FP 4's trick; asked from
        // pig 4 the order is 4, 1, 2, 3: MP itself has no J, so ZP 2 plays.
        let mut g = game("4 1\nMP D D D D\nZP J D D D\nZP J D D D\nFP D D D D\nD\n");
        assert!(g.negated(3, 0));
        assert!(!g.pigs[1].hand.has(NEGATE));
        assert!(g.pigs[2].hand.has(NEGATE));
        assert!(g.pigs[1].revealed && !g.pigs[2].revealed);
    }

    #[test]
    fn loyal_pig_never_discards_kill_in_a_duel_by_mp() {
        let mut g = game("3 1\nMP D D D D\nZP K K K K\nFP D D D D\nD\n");
        g.pigs[1].suspected = true;
        g.duel(0, 1);
        assert_eq!(g.pigs[1].hp, 3);
        assert_eq!(g.pigs[1].hand.cards().filter(|&c| c == KILL).count(), 4);
    }

    #[test]
    fn duel_target_discards_first_and_the_one_who_runs_out_is_hurt() {
        let mut g = game("2 1\nMP K D D D\nFP K D D D\nD\n");
        g.duel(1, 0);
        assert_eq!((g.pigs[0].hp, g.pigs[1].hp), (3, 4));
        let mut g = game("2 1\nMP K K D D\nFP K D D D\nD\n");
        g.duel(1, 0);
        assert_eq!((g.pigs[0].hp, g.pigs[1].hp), (4, 3));
    }

    #[test]
    fn answering_a_duel_or_a_kill_reveals_nothing() {
        let mut g = game("3 1\nMP K D D D\nZP D D D D\nFP K D D D\nD\n");
        g.pigs[2].suspected = true;
        g.duel(0, 2);
        assert!(!g.pigs[2].revealed);
        g.kill(0, 2);
        assert!(!g.pigs[2].revealed);
    }

    #[test]
    fn area_attack_marks_suspect_only_when_mp_is_hurt_by_an_unrevealed_pig() {
        let mut g = game("3 1\nMP K D D D\nZP D D D D\nFP D D D D\nD\n");
        g.area_attack(1, KILL); // MP answers with 杀
        assert!(!g.pigs[1].suspected);
        g.area_attack(1, KILL); // now MP is hurt
        assert!(g.pigs[1].suspected);
        assert_eq!(g.pigs[0].hp, 3);
        let mut g = game("3 1\nMP D D D D\nZP D D D D\nFP D D D D\nD\n");
        g.reveal(2);
        g.area_attack(2, KILL);
        assert!(!g.pigs[2].suspected, "a revealed pig is never relabelled");
    }

    #[test]
    fn area_attack_stops_when_the_game_is_won() {
        let mut g = game("3 1\nMP D D D D\nZP K D D D\nFP D D D D\nD\n");
        g.pigs[0].hp = 1;
        g.area_attack(2, KILL);
        assert_eq!(g.winner, Some(Role::Rebel));
        assert!(g.pigs[1].hand.has(KILL), "pig 2 is never asked");
    }

    #[test]
    fn dying_pig_eats_peaches_out_of_turn_only_when_dying() {
        let mut g = game("2 1\nMP P D D D\nFP D D D D\nD\n");
        g.damage(0, 1);
        assert_eq!(g.pigs[0].hp, 3);
        assert!(g.pigs[0].hand.has(PEACH));
        g.pigs[0].hp = 1;
        g.damage(0, 1);
        assert_eq!(g.pigs[0].hp, 1);
        assert!(g.pigs[0].alive && !g.pigs[0].hand.has(PEACH));
    }

    #[test]
    fn rebel_death_rewards_the_source_even_a_rebel_but_not_the_last_one() {
        let mut g = game("3 5\nMP D D D D\nFP D D D D\nFP D D D D\nK K K K K\n");
        g.pigs[1].hp = 1;
        g.damage(1, 2);
        assert_eq!(g.pigs[2].hand.cards().count(), 7);
        g.pigs[2].hp = 1;
        g.damage(2, 0);
        assert_eq!(g.winner, Some(Role::Main));
        assert_eq!(
            g.pigs[0].hand.cards().count(),
            4,
            "no reward once the game is won"
        );
    }

    #[test]
    fn mp_killing_a_loyal_pig_loses_hand_and_weapon() {
        let mut g = game("3 1\nMP K K D D\nZP D D D D\nFP D D D D\nD\n");
        g.pigs[0].crossbow = true;
        g.pigs[1].hp = 1;
        g.damage(1, 0);
        assert!(!g.pigs[1].alive);
        assert_eq!(g.pigs[0].hand.cards().count(), 0);
        assert!(!g.pigs[0].crossbow);
        // A rebel killing a loyal pig loses nothing.
        let mut g = game("3 1\nMP K K D D\nZP D D D D\nFP D D D D\nD\n");
        g.pigs[1].hp = 1;
        g.damage(1, 2);
        assert_eq!(g.pigs[2].hand.cards().count(), 4);
    }

    #[test]
    fn one_kill_per_turn_without_crossbow_and_any_number_with_one() {
        let mut g = game("2 1\nMP K K K K\nFP D D D D\nJ\n");
        g.reveal(1);
        g.take_turn(0);
        assert_eq!(g.pigs[1].hp, 4, "the only 杀 was dodged");
        assert_eq!(g.pigs[0].hand.cards().filter(|&c| c == KILL).count(), 3);
        let mut g = game("2 1\nMP Z K K K\nFP D D D D\nJ\n");
        g.reveal(1);
        g.take_turn(0);
        assert_eq!(g.pigs[0].hand.cards().filter(|&c| c == KILL).count(), 0);
    }

    #[test]
    fn peach_is_eaten_in_turn_only_below_full_health() {
        let mut g = game("2 1\nMP P P D D\nFP D D D D\nD\n");
        g.take_turn(0);
        assert_eq!(g.pigs[0].hand.cards().filter(|&c| c == PEACH).count(), 2);
        g.pigs[0].hp = 3;
        g.take_turn(0);
        assert_eq!(g.pigs[0].hp, 4);
        assert_eq!(g.pigs[0].hand.cards().filter(|&c| c == PEACH).count(), 1);
    }

    #[test]
    fn second_crossbow_is_equipped_too() {
        let mut g = game("2 1\nMP Z Z D D\nFP D D D D\nD\n");
        g.take_turn(0);
        assert!(g.pigs[0].crossbow);
        assert!(!g.pigs[0].hand.has(CROSSBOW));
    }

    #[test]
    fn rescan_from_left_after_every_card() {
        // Hand K K Z: the first K is used, the second is not usable (one
        // 杀 a turn), then the crossbow is equipped, and the scan starts
        // again from the left: the second K, left of the Z, is now usable.
        let mut g = game("2 1\nMP K K Z D\nFP D D D D\nD\n");
        g.reveal(1);
        g.take_turn(0);
        assert!(g.pigs[0].crossbow);
        assert!(!g.pigs[0].hand.has(KILL));
        assert_eq!(g.pigs[1].hand.cards().count(), 2, "two 闪 spent");
    }

    #[test]
    fn no_rebel_means_mp_has_already_won() {
        assert_eq!(
            ok("2 1\nMP N N N N\nZP W W W W\nK\n"),
            "MP\nN N N N\nW W W W\n"
        );
    }

    #[test]
    fn empty_hand_prints_an_empty_line() {
        assert_eq!(ok("2 2\nMP W W W W\nFP D D Z Z\nN N\n"), "MP\n\nDEAD\n");
    }

    #[test]
    fn never_ending_game_is_detected() {
        match run("2 1\nMP D D D D\nFP D D D D\nD\n") {
            Err(Failure::NeverEnds(why)) => assert!(why.contains("'D'"), "{}", why),
            other => panic!("{:?}", other),
        }
        // Crossbows equipped over and over change nothing.
        assert!(matches!(
            run("2 1\nMP D D D D\nFP D D D D\nZ\n"),
            Err(Failure::NeverEnds(_))
        ));
    }

    #[test]
    fn detector_does_not_fire_on_a_game_that_ends_after_a_quiet_spell() {
        // Deck exhausted at once (last card K); for a while nobody can act,
        // then K's pile up and the pigs fight to the end.
        let out = ok("2 2\nMP D D D D\nFP D D D D\nP K\n");
        assert_eq!(out, "MP\nK K K K K K K K K\nDEAD\n");
    }

    #[test]
    fn quiet_round_really_repeats_forever() {
        // Soundness spot check: after the detector would fire, run many more
        // turns by hand and see that nothing ever happens again.
        let mut g = game("3 2\nMP P K D D\nFP N D D D\nZP J D D D\nW P\n");
        let err = g.run();
        assert!(matches!(err, Err(Failure::NeverEnds(_))), "{:?}", err);
        let events = g.events;
        let mut me = 0;
        for _ in 0..300 {
            if g.pigs[me].alive {
                g.take_turn(me);
            }
            me = (me + 1) % 3;
        }
        assert_eq!(g.events, events);
        assert_eq!(g.winner, None);
    }

    #[test]
    fn bad_input_is_reported_with_its_line() {
        assert_eq!(bad_line("").0, 1);
        assert_eq!(bad_line("3 10\n").0, 2);
        assert!(bad_line("1 5\n").1.contains("n must be"));
        assert!(bad_line("11 5\n").1.contains("n must be"));
        assert!(bad_line("2 0\n").1.contains("m must be"));
        assert!(bad_line("2 2001\n").1.contains("m must be"));
        assert!(bad_line("2 x\n").1.contains("m must be"));
        assert!(bad_line("2 99999999999999999999\n").1.contains("m must be"));
        let (l, w) = bad_line("2 1\nFP D D D D\nMP D D D D\nK\n");
        assert_eq!((l, w.as_str()), (2, "pig 1 must be MP, found 'FP'"));
        assert!(bad_line("2 1\nMP D D D D\nMP D D D D\nK\n")
            .1
            .contains("only pig 1"));
        assert!(bad_line("2 1\nMP D D D D\nQP D D D D\nK\n")
            .1
            .contains("unknown role"));
        let (l, w) = bad_line("2 1\nMP D D D D\nFP D D X D\nK\n");
        assert_eq!(l, 3);
        assert!(w.contains("unknown card 'X'"));
        assert!(bad_line("2 1\nMP D D D D\nFP D D D\nK\n")
            .1
            .contains("only 4 tokens"));
        let (l, w) = bad_line("2 3\nMP D D D D\nFP D D D D\nK K\n");
        assert_eq!(l, 4);
        assert!(w.contains("only 2 of the 3"));
        let (l, w) = bad_line("2 1\nMP D D D D\nFP D D D D\nK\nK\n");
        assert_eq!(l, 5);
        assert!(w.contains("extra token"));
        assert!(bad_line("2 1\nMP D D D D\nFP D D D D\nk\n")
            .1
            .contains("'k'"));
        assert!(bad_line("\x00\u{ff} 3\n").1.contains("\\x00"));
    }
}
