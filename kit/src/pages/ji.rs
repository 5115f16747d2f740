//! 集 (波波攒): the referee's record round by round (`ji_referee --trace`,
//! docs/contract.md "Trace formats") and the solver's value table
//! (`ji_solver --strategy` asked about every state, one table per
//! combination of lost skills). The game's vocabulary (the format's
//! reader, lasting effects, lost sets) is `crate::ji`'s, below.

use super::json::{self, Json};
use crate::error::{self, Error};
use crate::ji::{effects, format, lost_clause, lost_sets, read_variant, ENGLISH};
use std::io::Write;
use std::path::Path;

const SCRIPT: &str = include_str!("ji.js");

/// The referee's page: `ji_referee --trace` on the record (or, for a
/// referee without `--trace`, its verdict and the record's moves).
pub fn referee_page(
    input: &[u8],
    solver: &Path,
    title: &str,
    page: &mut dyn Write,
) -> error::Result<()> {
    let text = String::from_utf8_lossy(input);
    let v = read_variant(input).map_err(Error::page)?.0;
    let (skills, lasting) = (skills(&v), effect_names(&v));
    let traced = super::page::run(solver, &["--trace"], input)?;
    let data = if traced.code == 0 {
        let rounds = rounds(&traced.stderr).map_err(Error::page)?;
        referee_json(&skills, &lasting, &rounds, &traced.stdout, None)
    } else {
        // A ji_referee without `--trace` (docs/contract.md) refuses it:
        // show the record's moves and the verdict alone.
        let plain = super::page::run(solver, &[], input)?;
        if plain.code != 0 {
            return Err(plain.refusal("ji_referee"));
        }
        let rounds = record_rounds(&text, &plain.stdout).map_err(Error::page)?;
        let note = "this ji_referee has no --trace: the counts of 集 are not shown";
        referee_json(&skills, &lasting, &rounds, &plain.stdout, Some(note))
    };
    super::page::write_json_page(page, title, SCRIPT, &data)
}

/// The solver's page: `ji_solver --strategy` asked about every state.
pub fn solver_page(
    input: &[u8],
    solver: &Path,
    title: &str,
    page: &mut dyn Write,
) -> error::Result<()> {
    let text = String::from_utf8_lossy(input);
    let mut table = table(&text).map_err(Error::page)?;
    let mut run = super::page::run(solver, &["--strategy"], table.every_state_input().as_bytes())?;
    let side = table.c + 1;
    if run.code == 3
        && table.every_pair
        && cells(&run.stdout).len() != side * side * table.lost.len()
    {
        // Too many tables for the solver (it answers a part, or nothing):
        // the tables of the input's own queries, which it was given.
        table = tabulate(&text, false).map_err(Error::page)?;
        run = super::page::run(solver, &["--strategy"], table.every_state_input().as_bytes())?;
    }
    let mut cells = cells(&run.stdout);
    let states = side * side * table.lost.len();
    let note = match run.code {
        0 => None,
        3 if cells.len() == states => Some(format!(
            "not certified (ji_solver exit 3, best values shown): {}",
            run.stderr.trim_end()
        )),
        3 => {
            // The solver could not answer these: the page shows the
            // variant and why.
            cells.clear();
            Some(format!("not answered (ji_solver exit 3): {}", run.stderr.trim_end()))
        }
        _ => return Err(run.refusal("ji_solver")),
    };
    if run.code == 0 && cells.len() != states {
        let what = format!("ji_solver answered {} of the {} states", cells.len(), states);
        return Err(Error::run(what));
    }
    super::page::write_json_page(page, title, SCRIPT, &solver_json(&table, &cells, note.as_deref()))
}

/// A skill as the input states it: its name, the 集 it gives (`delta`,
/// negative: it spends), the 集 it needs (`req`) and the skills it beats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skill {
    pub name: String,
    pub delta: String,
    pub req: i64,
    pub beats: Vec<String>,
}

fn english_json() -> Json {
    Json::Object(ENGLISH.iter().map(|(zh, en)| (zh.to_string(), Json::string(en))).collect())
}

/// A lasting effect by the skills' names, as the page lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EffectNames {
    pub skill: String,
    pub met: Vec<String>,
    pub taken: Vec<String>,
}

fn effect_names(v: &format::Variant<'_>) -> Vec<EffectNames> {
    let name = |x: usize| String::from_utf8_lossy(v.skills[x].name).into_owned();
    let names = |list: &[usize]| list.iter().map(|&x| name(x)).collect();
    (effects(v).iter())
        .map(|e| EffectNames { skill: name(e.skill), met: names(&e.met), taken: names(&e.taken) })
        .collect()
}

/// `[[skill, [met..], [taken..]], ..]`.
fn lasting_json(lasting: &[EffectNames]) -> Json {
    let names = |list: &[String]| Json::Array(list.iter().map(|n| Json::string(n)).collect());
    let effect =
        |e: &EffectNames| Json::Array(vec![Json::string(&e.skill), names(&e.met), names(&e.taken)]);
    Json::Array(lasting.iter().map(effect).collect())
}

fn skill_json(s: &Skill) -> Json {
    Json::Array(vec![
        Json::string(&s.name),
        Json::string(&s.delta),
        Json::Number(s.req),
        Json::Array(s.beats.iter().map(|b| Json::string(b)).collect()),
    ])
}

/// The skills of a variant as the page shows them.
fn skills(v: &format::Variant<'_>) -> Vec<Skill> {
    let name = |x: u32| String::from_utf8_lossy(v.skills[x as usize].name).into_owned();
    (v.skills.iter())
        .map(|s| Skill {
            name: String::from_utf8_lossy(s.name).into_owned(),
            delta: s.delta.to_string(),
            req: s.req,
            beats: s.beaten.iter().map(|&x| name(x)).collect(),
        })
        .collect()
}

/// One refereed round (a `round` trace line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub t: u64,
    /// The skills A and B play.
    pub moves: [String; 2],
    /// Both counts of 集 before the round.
    pub before: [String; 2],
    /// `next A' B'` (then ` taken W S..` per side that lost skills), `A`,
    /// `B`, `ILLEGAL A|B|AB`.
    pub result: String,
}

/// The rounds of a `ji_referee --trace` (stderr), each `taken` line added
/// to its round's result (`next 1 1 taken B shield`); other lines are
/// ignored.
pub fn rounds(trace: &str) -> Result<Vec<Round>, String> {
    let mut rounds: Vec<Round> = Vec::new();
    for line in trace.lines() {
        let w: Vec<&str> = line.trim_end_matches('\r').split(' ').collect();
        if let (["taken", _, ..], Some(last)) = (w.as_slice(), rounds.last_mut()) {
            // `taken T W S..` after its round: the skills W lost in it.
            last.result.push_str(&format!(" taken {}", w[2..].join(" ")));
            continue;
        }
        if w[0] != "round" {
            continue;
        }
        if w.len() < 7 {
            return Err(format!("bad trace line `{line}`"));
        }
        rounds.push(Round {
            t: w[1].parse().map_err(|_| format!("bad round in `{line}`"))?,
            moves: [w[2].to_string(), w[3].to_string()],
            before: [w[4].to_string(), w[5].to_string()],
            result: w[6..].join(" "),
        });
    }
    Ok(rounds)
}

/// The rounds as the record states them, without counts: for a ji_referee
/// that has no `--trace` (the verdict says which round decided).
pub fn record_rounds(input: &str, verdict: &str) -> Result<Vec<Round>, String> {
    let (_, mut lx) = read_variant(input.as_bytes())?;
    let words: Vec<&str> = std::iter::from_fn(|| lx.next()).map(|t| text_of(t.text)).collect();
    let r: usize = words
        .first()
        .and_then(|w| w.parse().ok())
        .ok_or("the record's round count cannot be read")?;
    let v: Vec<&str> = verdict.split_whitespace().collect();
    let last = v.last().and_then(|t| t.parse::<usize>().ok());
    let played = if v.first() == Some(&"CONTINUE") { r } else { last.unwrap_or(r).min(r) };
    Ok((0..played)
        .filter_map(|i| {
            let x = words.get(1 + 2 * i)?;
            let y = words.get(2 + 2 * i)?;
            Some(Round {
                t: i as u64 + 1,
                moves: [x.to_string(), y.to_string()],
                before: ["?".to_string(), "?".to_string()],
                result: if i + 1 == played && v.first() != Some(&"CONTINUE") {
                    v[..v.len() - 1].join(" ")
                } else {
                    "?".to_string()
                },
            })
        })
        .collect())
}

pub fn referee_json(
    skills: &[Skill],
    lasting: &[EffectNames],
    rounds: &[Round],
    verdict: &str,
    note: Option<&str>,
) -> Json {
    let rounds = rounds.iter().map(|r| {
        Json::Array(vec![
            Json::Number(r.t as i64),
            Json::string(&r.moves[0]),
            Json::string(&r.moves[1]),
            Json::string(&r.before[0]),
            Json::string(&r.before[1]),
            Json::string(&r.result),
        ])
    });
    json::object(vec![
        ("kind", Json::string("ji_referee")),
        ("english", english_json()),
        ("skills", Json::Array(skills.iter().map(skill_json).collect())),
        ("lasting", lasting_json(lasting)),
        ("rounds", Json::Array(rounds.collect())),
        ("verdict", Json::string(verdict.trim_end())),
        ("note", note.map_or(Json::Null, Json::string)),
    ])
}

/// A token of a text kit read as UTF-8 (tokens end at ASCII whitespace,
/// so each is UTF-8 too).
fn text_of(token: &[u8]) -> &str {
    std::str::from_utf8(token).unwrap_or("")
}

/// The skills each side has lost, by name: A's, then B's.
pub type Lost = [Vec<String>; 2];

/// A 集 game to tabulate: the input's skills and `R p` line, its own
/// queries, the largest count C (the largest `req`), and the combinations
/// of lost skills, one table each (the page shows one at a time).
#[derive(Debug)]
pub struct Table {
    pub skills: Vec<Skill>,
    pub lasting: Vec<EffectNames>,
    /// The largest count drawn: the game's C (the largest `req`), at most
    /// 200; and the game's C.
    pub c: usize,
    pub game_c: usize,
    /// The input's queries (x, y), and the table each one is in.
    pub queries: Vec<(usize, usize)>,
    pub query_tables: Vec<usize>,
    /// The round limit R (0: none) and the draw chance p in percent, as
    /// the input writes them.
    pub rounds: String,
    pub draw_percent: String,
    /// Per table, the skills A and B have lost (none in the first).
    pub lost: Vec<Lost>,
    /// How many sets of skills a side can lose (`None`: more than the
    /// page lists), and whether `lost` holds every pair of them; if not,
    /// it holds the pairs the input's queries name (nothing lost if none).
    pub lost_sets: Option<usize>,
    pub every_pair: bool,
    /// The input up to its `R p` line, as written.
    pub head: String,
}

/// The largest count the table draws: ji_solver takes 0..=C (C = max
/// req); past 200 (a table of 40,401 states) the page draws 0..=200 and
/// says so.
const MAX_C: usize = 200;

/// The most states the page tabulates, all tables together: what it held
/// when it drew every table at once, at most 4 lost sets a side (C = 200:
/// 16 tables of 201 x 201 states). A state takes about 100 bytes of the
/// page (the showcase variant's 2,304: 224 KB), so a page stays under
/// 65 MB; the browser draws one table at a time. With more pairs of lost
/// sets than fit, the page has the tables of the input's queries only,
/// and says so.
const PAGE_STATES: usize = 201 * 201 * 16;

/// The game of a ji_solver input, to tabulate ([`Table`]).
///
/// # Errors
/// A variant the reader refuses, or no `R p` after the variant.
pub fn table(input: &str) -> Result<Table, String> {
    tabulate(input, true)
}

/// [`table`], with every pair of lost sets if `every` and they fit the
/// page, else the pairs the input's queries name.
fn tabulate(input: &str, every: bool) -> Result<Table, String> {
    let (v, mut lx) = read_variant(input.as_bytes())?;
    let skills = skills(&v);
    // The reader takes req >= 0.
    let game_c = skills.iter().map(|s| s.req).max().unwrap_or(0).max(0) as usize;
    let c = game_c.min(MAX_C);
    let plane = (c + 1).pow(2);
    // At most `most` sets a side: their pairs' states fit the page.
    let most = ((PAGE_STATES / plane) as f64).sqrt() as usize;
    let records = effects(&v);
    let sets = lost_sets(records.iter().map(|e| e.taken.as_slice()), most.max(1));
    let names = |set: &Vec<usize>| set.iter().map(|&x| skills[x].name.clone()).collect();
    let every: Option<Vec<Lost>> = sets.as_ref().filter(|_| every).map(|sets| {
        sets.iter().flat_map(|a| sets.iter().map(move |b| [names(a), names(b)])).collect()
    });
    let no_line = "the input has no `R p` line";
    let rounds = lx.next().ok_or(no_line)?;
    let p = lx.next().ok_or(no_line)?;
    // The head ends with p's token, a slice of `input`.
    let end = p.text.as_ptr() as usize - input.as_ptr() as usize + p.text.len();
    let head = format!("{}\n", &input[..end]);
    let (rounds, draw_percent) = (text_of(rounds.text).to_string(), text_of(p.text).to_string());
    let words: Vec<&str> = std::iter::from_fn(|| lx.next()).map(|t| text_of(t.text)).collect();
    let (queries, query_lost) = queries(&words, &skills);
    let every_pair = every.is_some();
    let lost = every.unwrap_or_else(|| {
        let mut lost: Vec<Lost> = Vec::new();
        for l in &query_lost {
            if !lost.contains(l) {
                lost.push(l.clone());
            }
        }
        if lost.is_empty() {
            lost.push(Default::default());
        }
        lost
    });
    let query_tables =
        (query_lost.iter()).map(|l| lost.iter().position(|t| t == l).unwrap_or(0)).collect();
    let lasting = effect_names(&v);
    Ok(Table {
        skills,
        lasting,
        c,
        game_c,
        queries,
        query_tables,
        rounds,
        draw_percent,
        lost,
        lost_sets: sets.map(|s| s.len()),
        every_pair,
        head,
    })
}

/// The input's queries from `q` on (as far as they read), and the lost
/// skills of each (`lost i a.. j b..`, each side's in skill order).
fn queries(words: &[&str], skills: &[Skill]) -> (Vec<(usize, usize)>, Vec<Lost>) {
    let count = |i: usize| words.get(i).and_then(|w| w.parse::<usize>().ok());
    let (mut queries, mut losses) = (Vec::new(), Vec::new());
    let mut at = 1;
    for _ in 0..count(0).unwrap_or(0) {
        let (Some(x), Some(y)) = (count(at), count(at + 1)) else { break };
        at += 2;
        let mut lost_here: Lost = Default::default();
        if words.get(at) == Some(&"lost") {
            at += 1;
            for side in &mut lost_here {
                let k = count(at).unwrap_or(0);
                let mut list: Vec<&str> = words.iter().skip(at + 1).take(k).copied().collect();
                at += 1 + k;
                list.sort_by_key(|n| skills.iter().position(|s| s.name == *n));
                *side = list.iter().map(|n| n.to_string()).collect();
            }
        }
        queries.push((x, y));
        losses.push(lost_here);
    }
    (queries, losses)
}

impl Table {
    /// The same game with one query per state and table, row-major: the
    /// tables in order, then (x, y) for x, then y, in 0..=C.
    pub fn every_state_input(&self) -> String {
        let mut s = self.head.clone();
        let side = self.c + 1;
        s.push_str(&format!("{}\n", side * side * self.lost.len()));
        for [a, b] in &self.lost {
            let clause = lost_clause(a, b);
            for x in 0..side {
                for y in 0..side {
                    s.push_str(&format!("{x} {y}{clause}\n"));
                }
            }
        }
        s
    }
}

/// One state's value and its first round's optimal strategies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub value: String,
    pub a: String,
    pub b: String,
}

/// `ji_solver --strategy`'s answers: each value line, and the `A:` / `B:`
/// lines right after it; any other line is not ours to read.
pub fn cells(output: &str) -> Vec<Cell> {
    let mut cells: Vec<Cell> = Vec::new();
    let mut after_value = 0;
    for line in output.lines().map(|l| l.trim_end_matches('\r')) {
        let is_value = !line.is_empty()
            && line.parse::<f64>().is_ok()
            && line.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b'-');
        if is_value {
            cells.push(Cell { value: line.to_string(), a: String::new(), b: String::new() });
            after_value = 1;
            continue;
        }
        let last = cells.last_mut();
        match (after_value, line.strip_prefix("A: "), line.strip_prefix("B: "), last) {
            (1, Some(a), _, Some(cell)) => {
                cell.a = a.to_string();
                after_value = 2;
            }
            (1 | 2, _, Some(b), Some(cell)) => {
                cell.b = b.to_string();
                after_value = 0;
            }
            _ => after_value = 0,
        }
    }
    cells
}

/// One table's losses: `[[A's lost names], [B's lost names]]`.
fn lost_json(lost: &Lost) -> Json {
    let side = |names: &Vec<String>| Json::Array(names.iter().map(|n| Json::string(n)).collect());
    Json::Array(vec![side(&lost[0]), side(&lost[1])])
}

pub fn solver_json(table: &Table, cells: &[Cell], note: Option<&str>) -> Json {
    let cells = cells
        .iter()
        .map(|c| Json::Array(vec![Json::string(&c.value), Json::string(&c.a), Json::string(&c.b)]));
    json::object(vec![
        ("kind", Json::string("ji_solver")),
        ("c", Json::Number(table.c as i64)),
        ("game_c", Json::Number(table.game_c as i64)),
        ("english", english_json()),
        ("skills", Json::Array(table.skills.iter().map(skill_json).collect())),
        ("lasting", lasting_json(&table.lasting)),
        ("R", Json::string(&table.rounds)),
        ("p", Json::string(&table.draw_percent)),
        (
            "queries",
            Json::Array(
                (table.queries.iter().zip(&table.query_tables))
                    .map(|(&(x, y), &t)| {
                        let at = [x, y, t].map(|i| Json::Number(i as i64));
                        Json::Array(at.to_vec())
                    })
                    .collect(),
            ),
        ),
        ("lost", Json::Array(table.lost.iter().map(lost_json).collect())),
        ("lost_sets", table.lost_sets.map_or(Json::Null, |n| Json::Number(n as i64))),
        ("every_pair", Json::Bool(table.every_pair)),
        ("cells", Json::Array(cells.collect())),
        ("note", note.map_or(Json::Null, Json::string)),
    ])
}
