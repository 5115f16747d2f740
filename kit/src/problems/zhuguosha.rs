//! 猪国杀 (SDOI2010): `n m`, then n lines `ROLE c1 c2 c3 c4` (pig 1 is
//! MP), then one line of the m deck cards, top first.

use super::{Problem, Profile, Shrinkable};
use crate::error::{Error, Result};
use crate::pages;
use crate::rng::Rng;
use std::io::Write;
use std::path::Path;

pub struct Zhuguosha;

/// The card letters, in the order of the weight tables below.
const CARDS: [char; 8] = ['P', 'K', 'D', 'F', 'N', 'W', 'J', 'Z'];

/// Card mixes, weights in `CARDS` order (P K D F N W J Z).
const UNIFORM: [u32; 8] = [1, 1, 1, 1, 1, 1, 1, 1];
const BASIC: [u32; 8] = [3, 4, 3, 0, 0, 0, 0, 1];
const NO_WUXIE: [u32; 8] = [2, 3, 2, 1, 1, 1, 0, 1];
const WUXIE: [u32; 8] = [1, 2, 1, 3, 3, 3, 8, 0];
const DUEL: [u32; 8] = [1, 5, 1, 6, 0, 0, 1, 0];
const AOE: [u32; 8] = [2, 4, 4, 1, 8, 8, 2, 1];
const CROSSBOW: [u32; 8] = [1, 6, 1, 1, 1, 1, 0, 3];
const CLASSIC: [u32; 8] = [4, 8, 6, 2, 2, 2, 2, 1];
const PENALTY: [u32; 8] = [1, 6, 1, 0, 0, 2, 0, 0];
const MIXES: [[u32; 8]; 8] = [UNIFORM, BASIC, NO_WUXIE, WUXIE, DUEL, AOE, CROSSBOW, CLASSIC];

/// The profiles, one variant each: every generator step matches on them,
/// so a new profile must say what it does at each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Deal {
    Random,
    MaxDeck,
    ManyRebels,
    ManyLoyal,
    Wuxie,
    Duels,
    Crossbow,
    TinyDeck,
    SingleKind,
    MpKillsLoyal,
    MpPenalty,
}

const PROFILES: &[Profile] = &[
    Profile {
        name: "random",
        generate: |rng| generate(Deal::Random, rng).render(),
        about: "2..10 pigs, any roles, m = 1..400, one of several card mixes",
    },
    Profile {
        name: "max_deck",
        generate: |rng| generate(Deal::MaxDeck, rng).render(),
        about: "m = 2000 deck cards (long games; the benchmark's workload)",
    },
    Profile {
        name: "many_rebels",
        generate: |rng| generate(Deal::ManyRebels, rng).render(),
        about: "ten pigs, at most two loyal, the rest rebels",
    },
    Profile {
        name: "many_loyal",
        generate: |rng| generate(Deal::ManyLoyal, rng).render(),
        about: "ten pigs, one or two rebels, the rest loyal",
    },
    Profile {
        name: "wuxie",
        generate: |rng| generate(Deal::Wuxie, rng).render(),
        about: "无懈可击-heavy with 南猪入侵, 万箭齐发 and 决斗: long J chains",
    },
    Profile {
        name: "duels",
        generate: |rng| generate(Deal::Duels, rng).render(),
        about: "决斗 and 杀 heavy: duel chains",
    },
    Profile {
        name: "crossbow",
        generate: |rng| generate(Deal::Crossbow, rng).render(),
        about: "猪哥连弩 + 杀 sprees, many rebels (3-card reward draws)",
    },
    Profile {
        name: "tiny_deck",
        generate: |rng| generate(Deal::TinyDeck, rng).render(),
        about: "m = 1..6: the deck runs out and repeats its last card",
    },
    Profile {
        name: "single_kind",
        generate: |rng| generate(Deal::SingleKind, rng).render(),
        about: "every hand holds four cards of one kind",
    },
    Profile {
        name: "mp_kills_loyal",
        generate: |rng| generate(Deal::MpKillsLoyal, rng).render(),
        about: "loyal pigs with 南猪入侵/万箭齐发 look like 类反猪 to MP, who holds 决斗/杀",
    },
    Profile {
        name: "mp_penalty",
        generate: |rng| generate(Deal::MpPenalty, rng).render(),
        about: "MP armed with 猪哥连弩 and 杀 kills loyal pigs that hurt it with 万箭齐发: \
                the penalty, and MP's turns after it",
    },
];

/// One game, as the statement lays it out.
#[derive(Clone, Debug, PartialEq)]
struct Game {
    /// Roles, pig 1 first (`MP`).
    roles: Vec<&'static str>,
    hands: Vec<[char; 4]>,
    deck: Vec<char>,
}

impl Game {
    fn render(&self) -> String {
        let mut s = format!("{} {}\n", self.roles.len(), self.deck.len());
        for (role, hand) in self.roles.iter().zip(&self.hands) {
            s.push_str(role);
            for c in hand {
                s.push(' ');
                s.push(*c);
            }
            s.push('\n');
        }
        let deck: Vec<String> = self.deck.iter().map(|c| c.to_string()).collect();
        s.push_str(&deck.join(" "));
        s.push('\n');
        s
    }

    /// Reads any whitespace layout; `None` if it is not a valid game.
    fn parse(input: &str) -> Option<Game> {
        let mut t = input.split_whitespace();
        let n: usize = t.next()?.parse().ok()?;
        let m: usize = t.next()?.parse().ok()?;
        if !(2..=10).contains(&n) || !(1..=2000).contains(&m) {
            return None;
        }
        let card = |s: &str| -> Option<char> {
            let c = s.chars().next()?;
            (s.len() == 1 && CARDS.contains(&c)).then_some(c)
        };
        let mut roles = Vec::new();
        let mut hands = Vec::new();
        for i in 0..n {
            let role = match t.next()? {
                "MP" if i == 0 => "MP",
                "ZP" if i > 0 => "ZP",
                "FP" if i > 0 => "FP",
                _ => return None,
            };
            roles.push(role);
            let mut hand = ['P'; 4];
            for slot in &mut hand {
                *slot = card(t.next()?)?;
            }
            hands.push(hand);
        }
        let deck = (0..m).map(|_| card(t.next()?)).collect::<Option<Vec<_>>>()?;
        t.next().is_none().then_some(Game { roles, hands, deck })
    }
}

fn cards(rng: &mut Rng, mix: &[u32; 8], count: usize) -> Vec<char> {
    (0..count).map(|_| CARDS[rng.weighted(mix)]).collect()
}

fn hand(rng: &mut Rng, mix: &[u32; 8]) -> [char; 4] {
    let c = cards(rng, mix, 4);
    [c[0], c[1], c[2], c[3]]
}

/// Roles of pigs 2..=n with `rebels` FP (at least one) in random seats.
fn roles(rng: &mut Rng, n: usize, rebels: usize) -> Vec<&'static str> {
    let rebels = rebels.clamp(1, n - 1);
    let mut rest: Vec<&'static str> =
        (1..n).map(|i| if i <= rebels { "FP" } else { "ZP" }).collect();
    rng.shuffle(&mut rest);
    let mut all = vec!["MP"];
    all.extend(rest);
    all
}

fn usize_in(rng: &mut Rng, lo: usize, hi: usize) -> usize {
    rng.range(lo as i64, hi as i64) as usize
}

fn generate(profile: Deal, rng: &mut Rng) -> Game {
    let any_mix = |rng: &mut Rng| *rng.pick(&MIXES);
    // Pigs, rebels, deck size, card mix of the hands and of the deck.
    let (n, rebels, m, hand_mix, deck_mix) = match profile {
        Deal::MaxDeck => {
            let n = usize_in(rng, 2, 10);
            let mix = any_mix(rng);
            (n, usize_in(rng, 1, n - 1), 2000, mix, mix)
        }
        Deal::ManyRebels => {
            let mix = any_mix(rng);
            (10, 9 - usize_in(rng, 0, 2), usize_in(rng, 20, 600), mix, mix)
        }
        Deal::ManyLoyal => {
            let mix = any_mix(rng);
            (10, usize_in(rng, 1, 2), usize_in(rng, 20, 600), mix, mix)
        }
        Deal::Wuxie => {
            let n = usize_in(rng, 3, 10);
            (n, usize_in(rng, 1, n - 1), usize_in(rng, 20, 400), WUXIE, WUXIE)
        }
        Deal::Duels => {
            let n = usize_in(rng, 2, 10);
            (n, usize_in(rng, 1, n - 1), usize_in(rng, 20, 400), DUEL, DUEL)
        }
        Deal::Crossbow => {
            let n = usize_in(rng, 4, 10);
            let rebels = usize_in(rng, (n - 1) / 2, n - 1);
            (n, rebels, usize_in(rng, 20, 400), CROSSBOW, CROSSBOW)
        }
        Deal::TinyDeck => {
            let n = usize_in(rng, 2, 10);
            let mix = any_mix(rng);
            (n, usize_in(rng, 1, n - 1), usize_in(rng, 1, 6), mix, mix)
        }
        Deal::SingleKind => {
            let n = usize_in(rng, 2, 10);
            let mix = any_mix(rng);
            (n, usize_in(rng, 1, n - 1), usize_in(rng, 1, 400), mix, mix)
        }
        Deal::MpKillsLoyal => {
            let n = usize_in(rng, 3, 10);
            (n, usize_in(rng, 1, 2), usize_in(rng, 10, 300), AOE, DUEL)
        }
        Deal::MpPenalty => {
            let n = usize_in(rng, 5, 8);
            (n, usize_in(rng, 2, 3), usize_in(rng, 20, 300), PENALTY, PENALTY)
        }
        Deal::Random => {
            let n = usize_in(rng, 2, 10);
            let deck_mix = any_mix(rng);
            // The hands sometimes come from another mix than the deck.
            let hand_mix = if rng.chance(0.3) { UNIFORM } else { deck_mix };
            (n, usize_in(rng, 1, n - 1), usize_in(rng, 1, 400), hand_mix, deck_mix)
        }
    };
    let mut roles = roles(rng, n, rebels);
    let mut hands: Vec<[char; 4]> = (0..n).map(|_| hand(rng, &hand_mix)).collect();
    match profile {
        Deal::SingleKind => {
            for h in &mut hands {
                *h = [*rng.pick(&CARDS); 4];
            }
        }
        Deal::Crossbow => {
            // MP and some rebels start armed with 杀 to spare.
            for (i, h) in hands.iter_mut().enumerate() {
                if i == 0 || rng.chance(0.4) {
                    *h = ['Z', 'K', 'K', *rng.pick(&['K', 'D', 'P'])];
                }
            }
        }
        Deal::MpKillsLoyal => {
            // Loyal pigs sit first and hurt MP with area tricks before they
            // can reveal themselves; rebels sit last. MP answers with duels.
            let rebels = roles.iter().filter(|r| **r == "FP").count();
            for (i, role) in roles.iter_mut().enumerate().skip(1) {
                *role = if i >= n - rebels { "FP" } else { "ZP" };
            }
            hands[0] = ['F', 'F', 'F', *rng.pick(&['F', 'K', 'P'])];
            for h in hands.iter_mut().take(n - rebels).skip(1) {
                let aoe = |rng: &mut Rng| *rng.pick(&['N', 'W']);
                *h = [aoe(rng), aoe(rng), *rng.pick(&['P', 'F', 'N']), 'P'];
                rng.shuffle(h);
            }
        }
        Deal::MpPenalty => {
            // Loyal pigs sit next to MP and hurt it with 万箭齐发 before
            // they reveal themselves; MP, armed, answers with 杀 sprees.
            let rebels = roles.iter().filter(|r| **r == "FP").count();
            for (i, role) in roles.iter_mut().enumerate().skip(1) {
                *role = if i >= n - rebels { "FP" } else { "ZP" };
            }
            hands[0] = ['Z', 'K', 'K', *rng.pick(&['K', 'P'])];
            for h in hands.iter_mut().take(n - rebels).skip(1) {
                *h = ['W', *rng.pick(&['P', 'K']), *rng.pick(&['P', 'D']), 'P'];
                rng.shuffle(h);
            }
            for h in hands.iter_mut().skip(n - rebels) {
                *h = ['D', 'D', *rng.pick(&['D', 'P']), 'P'];
            }
        }
        Deal::Random
        | Deal::MaxDeck
        | Deal::ManyRebels
        | Deal::ManyLoyal
        | Deal::Wuxie
        | Deal::Duels
        | Deal::TinyDeck => {}
    }
    let deck = cards(rng, &deck_mix, m);
    Game { roles, hands, deck }
}

/// m/2, m/4, ... down to 1 for a deck of at most 64 cards, down to
/// about m/64 for a longer one; `[1]` for m = 1 (a chunk may be the whole
/// deck: callers skip what would leave none).
fn chunk_sizes(m: usize) -> Vec<usize> {
    let smallest = (m / 64).max(1);
    let mut sizes = Vec::new();
    let mut chunk = (m / 2).max(1);
    while chunk >= smallest {
        sizes.push(chunk);
        if chunk == 1 {
            break;
        }
        chunk /= 2;
    }
    sizes
}

/// How plain a card is for the shrinker: `P` < `K` < `D` < the rest.
fn plainness(c: char) -> u32 {
    match c {
        'P' => 0,
        'K' => 1,
        'D' => 2,
        _ => 3,
    }
}

/// The shrinker's steps, most promising first: fewer pigs, then fewer
/// deck cards (halves, quarters, ... single cards), then plainer cards.
/// Each candidate has fewer tokens or the same tokens with a smaller
/// plainness sum, so repeated shrinking ends.
impl Shrinkable for Game {
    const STEPS: &'static [fn(&Game) -> Vec<Game>] = &[fewer_pigs, fewer_deck_cards, plainer_cards];

    fn parse(text: &str) -> Option<Game> {
        Game::parse(text)
    }

    fn render(&self) -> String {
        Game::render(self)
    }
}

/// Drops any pig but MP, keeping a rebel (a game without FP is won by MP
/// before it starts; the judge's data always have one).
fn fewer_pigs(g: &Game) -> Vec<Game> {
    let mut out = Vec::new();
    let n = g.roles.len();
    let rebels = g.roles.iter().filter(|r| **r == "FP").count();
    for i in (1..n).rev() {
        if n > 2 && !(g.roles[i] == "FP" && rebels == 1) {
            let mut s = g.clone();
            s.roles.remove(i);
            s.hands.remove(i);
            out.push(s);
        }
    }
    out
}

/// Removes chunks of m/2, m/4, ... deck cards, down to single cards once
/// the deck is short (a long deck gets at most about 128 such candidates:
/// each is a whole copy of the game).
fn fewer_deck_cards(g: &Game) -> Vec<Game> {
    let mut out = Vec::new();
    let m = g.deck.len();
    for chunk in chunk_sizes(m) {
        for start in (0..m).step_by(chunk) {
            let end = (start + chunk).min(m);
            if end - start < m {
                let mut s = g.clone();
                s.deck.drain(start..end);
                out.push(s);
            }
        }
    }
    out
}

/// Plainer cards, hands first: each hand card becomes P, or K; deck cards
/// likewise, by the chunks of [`fewer_deck_cards`].
fn plainer_cards(g: &Game) -> Vec<Game> {
    let mut out = Vec::new();
    let m = g.deck.len();
    let chunks = chunk_sizes(m);
    for plain in ['P', 'K'] {
        for i in 0..g.hands.len() {
            for j in 0..4 {
                if plainness(g.hands[i][j]) > plainness(plain) {
                    let mut s = g.clone();
                    s.hands[i][j] = plain;
                    out.push(s);
                }
            }
        }
        for &chunk in &chunks {
            for start in (0..m).step_by(chunk) {
                let part = start..(start + chunk).min(m);
                if g.deck[part.clone()].iter().any(|&c| plainness(c) > plainness(plain)) {
                    let mut s = g.clone();
                    for c in &mut s.deck[part] {
                        if plainness(*c) > plainness(plain) {
                            *c = plain;
                        }
                    }
                    out.push(s);
                }
            }
        }
    }
    out
}

impl Problem for Zhuguosha {
    fn name(&self) -> &'static str {
        "zhuguosha"
    }

    fn profiles(&self) -> &'static [Profile] {
        PROFILES
    }

    fn shrink(&self, input: &str) -> Vec<String> {
        super::shrink::<Game>(input)
    }

    /// `kit show`: the replay ([`crate::pages::zhuguosha`]).
    /// The replay, each event with the rules that fire there.
    fn page(&self, input: &[u8], solver: &Path, title: &str, page: &mut dyn Write) -> Result<()> {
        rule_page(input, solver, title, None, page)
    }

    fn marked_page(
        &self,
        input: &[u8],
        solver: &Path,
        title: &str,
        rule: &str,
        page: &mut dyn Write,
    ) -> Result<()> {
        rule_page(input, solver, title, Some(rule), page)
    }
}

/// The replay page, every event with the rules that fire there
/// (`crate::rules::zhuguosha`), and `rule`'s highlighted.
fn rule_page(
    input: &[u8],
    solver: &Path,
    title: &str,
    rule: Option<&str>,
    page: &mut dyn Write,
) -> Result<()> {
    let chosen = match rule {
        None => None,
        Some(id) => Some(crate::rules::find("zhuguosha", id).ok_or_else(|| {
            Error::usage(format!(
                "no rule `{id}` in zhuguosha's catalogue (see `kit rules zhuguosha`)"
            ))
        })?),
    };
    let replay = pages::zhuguosha::traced(input, solver)?;
    let per_event = crate::rules::zhuguosha::per_event(&replay).map_err(Error::page)?;
    let marks = pages::zhuguosha::Marks {
        per_event,
        chosen: chosen.map(|r| [r.id, r.statement, r.english]),
    };
    pages::zhuguosha::write(&replay, &marks, title, page)
}

#[cfg(test)]
mod tests {
    use super::super::strict_lines;
    use super::*;

    /// The statement's strict format, checked line by line.
    fn check_strict(text: &str) {
        let lines = strict_lines(text);
        let head: Vec<&str> = lines[0].split(' ').collect();
        assert_eq!(head.len(), 2, "{text}");
        let n: usize = head[0].parse().unwrap();
        let m: usize = head[1].parse().unwrap();
        assert!((2..=10).contains(&n) && (1..=2000).contains(&m), "{text}");
        assert_eq!(lines.len(), n + 2, "{text}");
        for (i, line) in lines[1..=n].iter().enumerate() {
            let t: Vec<&str> = line.split(' ').collect();
            assert_eq!(t.len(), 5, "{line}");
            let role_ok = if i == 0 { t[0] == "MP" } else { t[0] == "ZP" || t[0] == "FP" };
            assert!(role_ok, "{line}");
            assert!(t[1..].iter().all(|c| c.len() == 1 && "PKDFNWJZ".contains(c)));
        }
        assert!(lines[1..=n].iter().any(|l| l.starts_with("FP")), "no rebel: {text}");
        let deck: Vec<&str> = lines[n + 1].split(' ').collect();
        assert_eq!(deck.len(), m);
        assert!(deck.iter().all(|c| c.len() == 1 && "PKDFNWJZ".contains(c)));
    }

    #[test]
    fn same_seed_same_bytes_and_strict_format() {
        for p in PROFILES {
            for seed in 0..30 {
                let a = Zhuguosha.generate(p.name, &mut Rng::new(seed)).unwrap();
                let b = Zhuguosha.generate(p.name, &mut Rng::new(seed)).unwrap();
                assert_eq!(a, b, "{}", p.name);
                check_strict(&a);
                assert_eq!(Game::parse(&a).unwrap().render(), a);
            }
        }
    }

    #[test]
    fn profiles_have_their_shape() {
        let g = |p: &str, s| {
            let text = Zhuguosha.generate(p, &mut Rng::new(s)).expect("a profile");
            Game::parse(&text).expect("valid")
        };
        for s in 0..20 {
            assert_eq!(g("max_deck", s).deck.len(), 2000);
            assert!((1..=6).contains(&g("tiny_deck", s).deck.len()));
            let r = g("many_rebels", s);
            assert_eq!(r.roles.len(), 10);
            assert!(r.roles.iter().filter(|x| **x == "FP").count() >= 7);
            let l = g("many_loyal", s);
            assert_eq!(l.roles.len(), 10);
            assert!(l.roles.iter().filter(|x| **x == "ZP").count() >= 7);
            assert!(g("single_kind", s).hands.iter().all(|h| h.iter().all(|c| *c == h[0])));
        }
    }

    /// Tokens, then plainness: every candidate must be below its source.
    fn measure(g: &Game) -> (usize, u32) {
        let cards = g.hands.iter().flatten().chain(&g.deck);
        (g.roles.len() * 5 + g.deck.len(), cards.map(|&c| plainness(c)).sum())
    }

    #[test]
    fn shrink_candidates_are_valid_and_smaller() {
        for p in PROFILES {
            let text = Zhuguosha.generate(p.name, &mut Rng::new(3)).unwrap();
            let g = Game::parse(&text).unwrap();
            let cands = Zhuguosha.shrink(&text);
            assert!(!cands.is_empty());
            for c in &cands {
                check_strict(c);
                assert!(measure(&Game::parse(c).unwrap()) < measure(&g), "{c}");
            }
        }
    }

    #[test]
    fn shrinking_reaches_the_smallest_game() {
        // Always taking the first candidate ends at two pigs (MP and a
        // rebel), one deck card, all hands 桃.
        let mut text = Zhuguosha.generate("max_deck", &mut Rng::new(5)).unwrap();
        let mut steps = 0;
        while let Some(next) = Zhuguosha.shrink(&text).into_iter().next() {
            text = next;
            steps += 1;
            assert!(steps < 10_000);
        }
        assert_eq!(text, "2 1\nMP P P P P\nFP P P P P\nP\n");
    }

    #[test]
    fn shrink_rejects_what_is_not_a_game() {
        assert!(Zhuguosha.shrink("2 1\nZP P P P P\nFP P P P P\nP\n").is_empty());
        assert!(Zhuguosha.shrink("2 2\nMP P P P P\nFP P P P P\nP\n").is_empty());
    }
}
