//! 集 (波波攒): the referee's record round by round (`ji_referee --trace`,
//! docs/contract.md "Trace formats") and the solver's value table
//! (`ji_solver --strategy` asked about every state).

use super::json::{self, Json};
use crate::error::{self, Error};
use std::io::Write;
use std::path::Path;

// The names the page shows beside the Chinese ones; `english` is the
// trainer's lookup.
#[allow(dead_code)]
#[path = "../../../src/shared/ji_english.rs"]
mod ji_english;

pub use ji_english::ENGLISH;

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
    let words = tokens(&text);
    let (skills, _) = skills(&words).map_err(Error::page)?;
    let traced = super::page::run(solver, &["--trace"], input)?;
    let data = if traced.code == 0 {
        let rounds = rounds(&traced.stderr).map_err(Error::page)?;
        referee_json(&skills, &rounds, &traced.stdout, None)
    } else {
        // A ji_referee without `--trace` (docs/contract.md) refuses it:
        // show the record's moves and the verdict alone.
        let plain = super::page::run(solver, &[], input)?;
        if plain.code != 0 {
            return Err(plain.refusal("ji_referee"));
        }
        let rounds = record_rounds(&text, &plain.stdout).map_err(Error::page)?;
        let note = "this ji_referee has no --trace: the counts of 集 are not shown";
        referee_json(&skills, &rounds, &plain.stdout, Some(note))
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
    let table = table(&String::from_utf8_lossy(input)).map_err(Error::page)?;
    let run = super::page::run(solver, &["--strategy"], table.every_state_input().as_bytes())?;
    let note = match run.code {
        0 => None,
        3 => Some(format!(
            "not certified (ji_solver exit 3, best values shown): {}",
            run.stderr.trim_end()
        )),
        _ => return Err(run.refusal("ji_solver")),
    };
    let cells = cells(&run.stdout);
    let side = table.c + 1;
    if cells.len() != side * side {
        return Err(Error::run(format!(
            "ji_solver answered {} of the {} states",
            cells.len(),
            side * side
        )));
    }
    super::page::write_json_page(page, title, SCRIPT, &solver_json(&table, &cells, note.as_deref()))
}

/// ji_referee reads and ji_solver reads: ASCII whitespace separates tokens
/// (U+3000 and no-break spaces belong to names); a leading BOM is skipped.
fn tokens(text: &str) -> Vec<&str> {
    text.trim_start_matches('\u{feff}')
        .split(|c: char| c.is_ascii_whitespace() || c == '\x0b')
        .filter(|t| !t.is_empty())
        .collect()
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

fn skill_json(s: &Skill) -> Json {
    Json::Array(vec![
        Json::string(&s.name),
        Json::string(&s.delta),
        Json::Number(s.req),
        Json::Array(s.beats.iter().map(|b| Json::string(b)).collect()),
    ])
}

/// The skills of a 集 input, and the index of the token after them.
fn skills(words: &[&str]) -> Result<(Vec<Skill>, usize), String> {
    let bad = || "the input's skill list cannot be read".to_string();
    let n: usize = words.first().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
    let mut at = 1;
    let mut skills = Vec::new();
    for _ in 0..n {
        let field = |i: usize| words.get(at + i).copied().ok_or_else(bad);
        let name = field(0)?.to_string();
        let delta = field(1)?.to_string();
        let req: i64 = field(2)?.parse().map_err(|_| bad())?;
        let k: usize = field(3)?.parse().map_err(|_| bad())?;
        let beats = (0..k).map(|i| field(4 + i).map(str::to_string)).collect::<Result<_, _>>()?;
        skills.push(Skill { name, delta, req, beats });
        at += 4 + k;
    }
    Ok((skills, at))
}

/// One refereed round (a `round` trace line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub t: u64,
    /// The skills A and B play.
    pub moves: [String; 2],
    /// Both counts of 集 before the round.
    pub before: [String; 2],
    /// `next A' B'`, `A`, `B`, `ILLEGAL A|B|AB`.
    pub result: String,
}

/// The rounds of a `ji_referee --trace` (stderr); other lines are ignored.
pub fn rounds(trace: &str) -> Result<Vec<Round>, String> {
    let mut rounds = Vec::new();
    for line in trace.lines() {
        let w: Vec<&str> = line.trim_end_matches('\r').split(' ').collect();
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
    let words = tokens(input);
    let (_, at) = skills(&words)?;
    let r: usize = words
        .get(at)
        .and_then(|w| w.parse().ok())
        .ok_or("the record's round count cannot be read")?;
    let v: Vec<&str> = verdict.split_whitespace().collect();
    let last = v.last().and_then(|t| t.parse::<usize>().ok());
    let played = if v.first() == Some(&"CONTINUE") { r } else { last.unwrap_or(r).min(r) };
    Ok((0..played)
        .filter_map(|i| {
            let x = words.get(at + 1 + 2 * i)?;
            let y = words.get(at + 2 + 2 * i)?;
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

pub fn referee_json(skills: &[Skill], rounds: &[Round], verdict: &str, note: Option<&str>) -> Json {
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
        ("rounds", Json::Array(rounds.collect())),
        ("verdict", Json::string(verdict.trim_end())),
        ("note", note.map_or(Json::Null, Json::string)),
    ])
}

/// A 集 game to tabulate: the input's skills and `R p` line, its own
/// queries, and the largest count C (the largest `req`).
#[derive(Debug)]
pub struct Table {
    pub skills: Vec<Skill>,
    pub c: usize,
    pub queries: Vec<(usize, usize)>,
    /// The round limit R (0: none) and the draw chance p in percent, as
    /// the input writes them.
    pub rounds: String,
    pub draw_percent: String,
    /// The input up to its queries, as tokens, one record per line.
    pub head: String,
}

/// The largest count the table covers: ji_solver takes 0..=C (C = max req).
const MAX_C: i64 = 200;

pub fn table(input: &str) -> Result<Table, String> {
    let words = tokens(input);
    let (skills, at) = skills(&words)?;
    let c = skills.iter().map(|s| s.req).max().unwrap_or(0);
    if !(0..=MAX_C).contains(&c) {
        return Err(format!("the largest req is {c}: the page draws at most {MAX_C}"));
    }
    let head_words = words.get(..at + 2).ok_or("the input has no `R p` line")?;
    let mut head = format!("{}\n", words[0]);
    let mut i = 1;
    while i < at {
        let k: usize = words[i + 3].parse().unwrap_or(0);
        head.push_str(&head_words[i..i + 4 + k].join(" "));
        head.push('\n');
        i += 4 + k;
    }
    head.push_str(&head_words[at..].join(" "));
    head.push('\n');
    let q: usize = words.get(at + 2).and_then(|w| w.parse().ok()).unwrap_or(0);
    let queries = (0..q)
        .filter_map(|j| {
            let x = words.get(at + 3 + 2 * j)?.parse().ok()?;
            let y = words.get(at + 4 + 2 * j)?.parse().ok()?;
            Some((x, y))
        })
        .collect();
    let (rounds, draw_percent) = (words[at].to_string(), words[at + 1].to_string());
    Ok(Table { skills, c: c as usize, queries, rounds, draw_percent, head })
}

impl Table {
    /// The same game with one query per state, row-major: (x, y) for x,
    /// then y, in 0..=C.
    pub fn every_state_input(&self) -> String {
        let mut s = self.head.clone();
        let side = self.c + 1;
        s.push_str(&format!("{}\n", side * side));
        for x in 0..side {
            for y in 0..side {
                s.push_str(&format!("{x} {y}\n"));
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

pub fn solver_json(table: &Table, cells: &[Cell], note: Option<&str>) -> Json {
    let cells = cells
        .iter()
        .map(|c| Json::Array(vec![Json::string(&c.value), Json::string(&c.a), Json::string(&c.b)]));
    json::object(vec![
        ("kind", Json::string("ji_solver")),
        ("c", Json::Number(table.c as i64)),
        ("english", english_json()),
        ("skills", Json::Array(table.skills.iter().map(skill_json).collect())),
        ("R", Json::string(&table.rounds)),
        ("p", Json::string(&table.draw_percent)),
        (
            "queries",
            Json::Array(
                table
                    .queries
                    .iter()
                    .map(|&(x, y)| {
                        Json::Array(vec![Json::Number(x as i64), Json::Number(y as i64)])
                    })
                    .collect(),
            ),
        ),
        ("cells", Json::Array(cells.collect())),
        ("note", note.map_or(Json::Null, Json::string)),
    ])
}
