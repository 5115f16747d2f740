//! 猪国杀: the replay a page steps through, from the input (the initial
//! deal and the deck) and `zhuguosha --trace` (every event). The rules stay
//! in the solver: this file only keeps the books (hands, hp, weapons, what
//! the others know) as each trace line says, and checks them against every
//! `turn` line and against the answer. Which rules of the statement fire at
//! each event is `crate::rules`' reading of the replay (the layer above),
//! handed to [`write()`] as [`Marks`].

use super::json::{self, Json};
use crate::error;
use std::io::Write;
use std::path::Path;

const SCRIPT: &str = include_str!("zhuguosha.js");

/// The page: `zhuguosha --trace` on `input` (exit 0, or 3 for a game that
/// never ends), replayed, without rule marks.
///
/// # Errors
/// As [`traced`]'s and [`write()`]'s.
pub fn page(input: &[u8], solver: &Path, title: &str, page: &mut dyn Write) -> error::Result<()> {
    write(&traced(input, solver)?, &Marks::default(), title, page)
}

/// The replay of `zhuguosha --trace` on `input` (exit 0, or 3 for a game
/// that never ends).
///
/// # Errors
/// The errors of [`super::page::run`]; a run error when our solver refuses
/// the case; a page error when its trace cannot be read.
pub fn traced(input: &[u8], solver: &Path) -> error::Result<Replay> {
    let run = super::page::run(solver, &["--trace"], input)?;
    if run.code != 0 && run.code != 3 {
        return Err(run.refusal("zhuguosha"));
    }
    replay(&String::from_utf8_lossy(input), &run.stdout, &run.stderr, run.code)
        .map_err(error::Error::page)
}

/// The rules to mark on a page (`crate::rules`, the layer above, names
/// them): the ids firing at each event, and the one rule the page
/// highlights (`kit show --rule ID`).
#[derive(Debug, Default)]
pub struct Marks<'a> {
    /// Per event, the ids of the rules that fire there (none: empty).
    pub per_event: Vec<Vec<&'a str>>,
    /// The highlighted rule: its id, the statement's sentence, English.
    pub chosen: Option<[&'a str; 3]>,
}

/// Writes the page of `replay` with its rule `marks`.
///
/// # Errors
/// A write error for the page.
pub fn write(
    replay: &Replay,
    marks: &Marks,
    title: &str,
    page: &mut dyn Write,
) -> error::Result<()> {
    super::page::write_json_page(page, title, SCRIPT, &to_json(replay, marks))
}

/// What the other pigs know of a pig (docs/zhuguosha.md, `reveal`/`mark`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    Unknown,
    /// 跳忠: it has shown itself a loyal pig.
    Loyal,
    /// 跳反: it has shown itself a rebel.
    Rebel,
    /// MP's 类反猪 label.
    LikeRebel,
    /// The main pig, known to all from the start.
    Main,
}

impl Known {
    fn code(self) -> &'static str {
        match self {
            Known::Unknown => "",
            Known::Loyal => "ZP",
            Known::Rebel => "FP",
            Known::LikeRebel => "like",
            Known::Main => "MP",
        }
    }
}

/// One pig at one step of the replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pig {
    pub hp: i32,
    /// Card letters, left to right.
    pub hand: String,
    pub weapon: bool,
    pub known: Known,
    pub dead: bool,
}

/// One trace line and the pigs it involves (0-based numbers).
#[derive(Clone, Debug)]
pub struct Event {
    pub line: String,
    /// Its line number in the trace (1-based).
    pub at: usize,
    pub source: Option<usize>,
    pub target: Option<usize>,
    /// Whose turn it is.
    pub turn_of: usize,
    /// Deck cards drawn so far (the deck's next card is `deck[drawn]`).
    pub drawn: usize,
}

/// The whole game: step 0 is the initial deal, step k follows event k.
#[derive(Debug)]
pub struct Replay {
    pub roles: Vec<String>,
    pub deck: String,
    pub events: Vec<Event>,
    /// `states[k]`: every pig after `k` events.
    pub states: Vec<Vec<Pig>>,
    /// The answer exactly as the solver printed it (empty if none).
    pub result: String,
    /// Why the game was cut off (exit 3: it never ends).
    pub cut_off: Option<String>,
}

fn tokens(text: &str) -> impl Iterator<Item = &str> {
    // The solver reads with C's whitespace (`cin >>`), \v and \f included.
    text.split([' ', '\t', '\n', '\r', '\x0b', '\x0c']).filter(|t| !t.is_empty())
}

/// The replay of `input`, from the solver's `trace` (stderr), its `answer`
/// (stdout) and exit `code` (0, or 3: the game never ends).
///
/// # Errors
/// What in the input, answer or trace cannot be read, as a message.
pub fn replay(input: &str, answer: &str, trace: &str, code: i32) -> Result<Replay, String> {
    let (mut replay, book) = replay_trace(input, trace)?;
    if code == 3 && replay.cut_off.is_none() {
        replay.cut_off = Some("the game does not end".to_string());
    }
    if code == 0 {
        book.check_answer(answer)?;
    }
    replay.result = answer.to_string();
    Ok(replay)
}

/// The replay of `input` from its `trace` alone (no answer to check; an
/// empty `result`).
///
/// # Errors
/// What in the input or trace cannot be read, as a message.
pub fn replay_of_trace(input: &str, trace: &str) -> Result<Replay, String> {
    Ok(replay_trace(input, trace)?.0)
}

fn replay_trace(input: &str, trace: &str) -> Result<(Replay, Book), String> {
    let mut words = tokens(input);
    let mut number = |what: &str| -> Result<usize, String> {
        words.next().and_then(|w| w.parse().ok()).ok_or(format!("the input has no {what}"))
    };
    let (n, m) = (number("n")?, number("m")?);
    let mut words = tokens(input).skip(2);
    let mut roles = Vec::new();
    let mut pigs = Vec::new();
    for i in 0..n {
        let role = words.next().ok_or(format!("the input lacks pig {}", i + 1))?;
        let hand: String = (0..4).filter_map(|_| words.next()).collect();
        pigs.push(Pig {
            hp: 4,
            hand,
            weapon: false,
            known: if role == "MP" { Known::Main } else { Known::Unknown },
            dead: false,
        });
        roles.push(role.to_string());
    }
    let deck: String = words.take(m).collect();
    let mut book = Book { deck: deck.as_bytes().to_vec(), drawn: 0, pigs, turn_of: 0 };
    let mut states = vec![book.pigs.clone()];
    let mut events = Vec::new();
    let mut cut_off = None;
    for (i, line) in trace.lines().enumerate() {
        if let Some(why) = line.strip_prefix("zhuguosha: ") {
            cut_off = Some(why.to_string());
            continue;
        }
        let (source, target) =
            book.apply(line).map_err(|e| format!("trace line {}: `{line}`: {e}", i + 1))?;
        events.push(Event {
            line: line.to_string(),
            at: i + 1,
            source,
            target,
            turn_of: book.turn_of,
            drawn: book.drawn,
        });
        states.push(book.pigs.clone());
    }
    Ok((Replay { roles, deck, events, states, result: String::new(), cut_off }, book))
}

/// The books kept from the trace.
struct Book {
    deck: Vec<u8>,
    drawn: usize,
    pigs: Vec<Pig>,
    turn_of: usize,
}

impl Book {
    /// A pig's number in the trace (1-based) as an index.
    fn pig(&self, word: Option<&str>) -> Result<usize, String> {
        word.and_then(|w| w.parse::<usize>().ok())
            .filter(|&p| (1..=self.pigs.len()).contains(&p))
            .map(|p| p - 1)
            .ok_or_else(|| "no such pig".to_string())
    }

    fn hp(word: Option<&str>) -> Result<i32, String> {
        word.and_then(|w| w.parse().ok()).ok_or_else(|| "bad hp".to_string())
    }

    /// Takes the leftmost `card` from pig `p`'s hand: a pig scans its hand
    /// from the left, and cards of one kind are alike, so the one used or
    /// given up is the leftmost of its kind (checked at every `turn` line).
    fn take(&mut self, p: usize, card: &str) -> Result<(), String> {
        let hand = &mut self.pigs[p].hand;
        let at = hand
            .find(card)
            .ok_or_else(|| format!("pig {} has no {card} in hand {hand:?}", p + 1))?;
        hand.remove(at);
        Ok(())
    }

    /// Draws `k` cards into pig `p`'s hand. "如果牌堆为空，则每次摸牌都摸到最后一张牌"
    /// (docs/zhuguosha.md: an empty deck repeats its last card).
    fn draw(&mut self, p: usize, cards: &[&str]) -> Result<(), String> {
        for &card in cards {
            let expected = self.deck.get(self.drawn).or(self.deck.last()).map(|&c| c as char);
            if expected.map(String::from).as_deref() != Some(card) {
                return Err(format!("drew {card}, the deck says {expected:?}"));
            }
            self.drawn = (self.drawn + 1).min(self.deck.len());
            self.pigs[p].hand.push_str(card);
        }
        Ok(())
    }

    /// Applies one trace line; returns its source and target pigs.
    fn apply(&mut self, line: &str) -> Result<(Option<usize>, Option<usize>), String> {
        let w: Vec<&str> = line.split(' ').collect();
        let at = |i: usize| w.get(i).copied();
        match w[0] {
            "turn" => {
                let p = self.pig(at(3))?;
                self.turn_of = p;
                let pig = &self.pigs[p];
                let hand: String = w.iter().skip(10).copied().collect();
                let said = (Self::hp(at(6))?, at(8) == Some("yes"), hand);
                let kept = (pig.hp, pig.weapon, pig.hand.clone());
                if said != kept {
                    return Err(format!("the books say hp, weapon, hand = {kept:?}"));
                }
                Ok((Some(p), None))
            }
            "draw" => {
                let p = self.pig(at(1))?;
                self.draw(p, &w[2..])?;
                Ok((Some(p), None))
            }
            "play" => {
                let p = self.pig(at(1))?;
                let card = at(2).ok_or("no card")?;
                self.take(p, card)?;
                match (card, at(3)) {
                    ("Z", _) => self.pigs[p].weapon = true,
                    ("P", Some("hp")) => self.pigs[p].hp = Self::hp(at(4))?,
                    (_, Some("on")) => return Ok((Some(p), Some(self.pig(at(4))?))),
                    _ => {}
                }
                Ok((Some(p), None))
            }
            "reveal" => {
                let p = self.pig(at(1))?;
                self.pigs[p].known = if at(2) == Some("ZP") { Known::Loyal } else { Known::Rebel };
                Ok((Some(p), None))
            }
            "mark" => {
                let p = self.pig(at(1))?;
                self.pigs[p].known = Known::LikeRebel;
                Ok((Some(0), Some(p)))
            }
            // Follows the pig's `reveal`, which already set what is known.
            "unmark" => Ok((Some(self.pig(at(1))?), None)),
            "negate" => {
                let p = self.pig(at(1))?;
                self.take(p, "J")?;
                Ok((Some(p), Some(self.pig(at(5))?)))
            }
            "answer" => {
                let p = self.pig(at(1))?;
                self.take(p, at(2).ok_or("no card")?)?;
                Ok((Some(p), None))
            }
            "damage" => {
                let p = self.pig(at(1))?;
                self.pigs[p].hp = Self::hp(at(5))?;
                Ok((Some(self.pig(at(3))?), Some(p)))
            }
            "peach" => {
                let p = self.pig(at(1))?;
                self.take(p, "P")?;
                self.pigs[p].hp = Self::hp(at(3))?;
                Ok((Some(p), None))
            }
            "death" => {
                let p = self.pig(at(1))?;
                let by = self.pig(at(4))?;
                let pig = &mut self.pigs[p];
                pig.dead = true;
                pig.hand.clear();
                pig.weapon = false;
                match at(5) {
                    Some("reward") => self.draw(by, &w[6..])?,
                    Some("penalty") => {
                        self.pigs[by].hand.clear();
                        self.pigs[by].weapon = false;
                    }
                    _ => {}
                }
                Ok((Some(by), Some(p)))
            }
            // A rule that decided not to act (docs/zhuguosha.md, `rule`).
            "rule" => Ok((Some(self.pig(at(2))?), None)),
            "end" => Ok((None, None)),
            other => Err(format!("unknown event `{other}`")),
        }
    }

    /// The answer's pig lines must be the books' hands (`DEAD` for the dead).
    fn check_answer(&self, answer: &str) -> Result<(), String> {
        let lines: Vec<&str> = answer.lines().skip(1).collect();
        for (i, pig) in self.pigs.iter().enumerate() {
            let kept = if pig.dead {
                "DEAD".to_string()
            } else {
                pig.hand.chars().map(String::from).collect::<Vec<_>>().join(" ")
            };
            if lines.get(i).map(|l| l.trim_end()) != Some(kept.as_str()) {
                return Err(format!(
                    "the answer's line for pig {} is {:?}, the books say {kept:?}",
                    i + 1,
                    lines.get(i)
                ));
            }
        }
        Ok(())
    }
}

fn pig_json(index: usize, pig: &Pig) -> Json {
    Json::Array(vec![
        Json::Number(index as i64),
        Json::Number(pig.hp.into()),
        Json::string(&pig.hand),
        Json::Number(pig.weapon.into()),
        Json::string(pig.known.code()),
        Json::Number(pig.dead.into()),
    ])
}

/// The page's data: the initial deal in full, then per event only the pigs
/// it changed (a 2000-card game stays far under 2 MB) and the rules that
/// fire there, and the highlighted rule.
pub fn to_json(replay: &Replay, marks: &Marks) -> Json {
    let opt = |p: Option<usize>| Json::Number(p.map_or(-1, |p| p as i64));
    let events = replay.events.iter().enumerate().map(|(k, e)| {
        let (before, after) = (&replay.states[k], &replay.states[k + 1]);
        let changed =
            (0..after.len()).filter(|&i| before[i] != after[i]).map(|i| pig_json(i, &after[i]));
        Json::Array(vec![
            Json::string(&e.line),
            opt(e.source),
            opt(e.target),
            Json::Number(e.turn_of as i64),
            Json::Number(e.drawn as i64),
            Json::Array(changed.collect()),
            Json::Array(
                marks.per_event.get(k).into_iter().flatten().map(|id| Json::string(id)).collect(),
            ),
        ])
    });
    json::object(vec![
        ("kind", Json::string("zhuguosha")),
        ("roles", Json::Array(replay.roles.iter().map(|r| Json::string(r)).collect())),
        ("deck", Json::string(&replay.deck)),
        (
            "deal",
            Json::Array(replay.states[0].iter().enumerate().map(|(i, p)| pig_json(i, p)).collect()),
        ),
        ("events", Json::Array(events.collect())),
        ("result", Json::string(&replay.result)),
        ("cutOff", replay.cut_off.as_ref().map_or(Json::Null, |c| Json::string(c))),
        ("rule", marks.chosen.map_or(Json::Null, |r| Json::Array(r.map(Json::string).to_vec()))),
    ])
}
