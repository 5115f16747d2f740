//! Ants: the battle a page draws, from the input map and `ants_battle
//! --explain` (each ant's weakness and the reason each dead ant died).
//!
//! Packed for a 2000 x 2000 map: the map is one string of one character
//! per cell (the input's own letters), and every ant gets one fixed-width
//! code into a dictionary of distinct (weakness, dead, reason) entries,
//! where a focus reason names its enemy by the offset from the dead ant,
//! not by its cell, so that few distinct entries exist.

use super::json::{self, Json};
use std::collections::BTreeMap;

/// The code alphabet: printable ASCII without `<` and `\` (safe, unescaped,
/// inside a JSON string inside `<script>`); the page gets it too.
pub const ALPHABET: &str = concat!(
    "#$%&'()*+,-./0123456789:;=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`",
    "abcdefghijklmnopqrstuvwxyz{|}~"
);

/// What the page knows of one ant.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct AntFate {
    /// `--explain`'s weakness character: `0`..`9`, or `+` for 10 or more.
    pub weakness: char,
    pub dead: bool,
    /// The REASON of its `dead` line; a focus reason's `by R C` is written
    /// `by @` with the enemy's offset in `enemy`.
    pub reason: String,
    pub enemy: (i64, i64),
}

#[derive(Debug)]
pub struct Battle {
    pub rows: usize,
    pub cols: usize,
    pub players: usize,
    pub radius2: u32,
    pub mode: String,
    /// The map before the battle, row-major, one input character per cell.
    pub map: String,
    /// Every ant in row-major order.
    pub ants: Vec<AntFate>,
}

/// `a`..`j` an ant, `A`..`J` an ant on its own hill (owners 0..9).
pub fn is_ant(c: u8) -> bool {
    (b'a'..=b'j').contains(&c) || (b'A'..=b'J').contains(&c)
}

fn clean(line: &str) -> &str {
    line.trim_end_matches(['\r', '\n'])
}

/// The battle of `input`, from the solver's `--explain` output.
pub fn battle(input: &str, output: &str) -> Result<Battle, String> {
    let mut header = BTreeMap::new();
    let mut weakness = String::new();
    let mut dead_lines = Vec::new();
    let mut explaining = false;
    for line in output.lines().map(clean) {
        if line == "explain" {
            explaining = true;
        } else if let Some(w) = line.strip_prefix("w ").filter(|_| explaining) {
            weakness.push_str(w);
        } else if let Some(d) = line.strip_prefix("dead ").filter(|_| explaining) {
            dead_lines.push(d.to_string());
        } else if !explaining && !line.starts_with("m ") {
            if let Some((key, value)) = line.split_once(' ') {
                header.insert(key.to_string(), value.to_string());
            }
        }
    }
    let number = |key: &str| header.get(key).and_then(|v| v.parse::<usize>().ok());
    let (rows, cols) = match (number("rows"), number("cols")) {
        (Some(r), Some(c)) => (r, c),
        _ => return Err("ants_battle printed no `rows` and `cols`".to_string()),
    };
    let map: String = input
        .lines()
        .map(clean)
        .filter_map(|l| l.trim_start().strip_prefix("m "))
        .map(str::trim)
        .collect();
    if map.len() != rows * cols || weakness.len() != rows * cols {
        return Err(format!(
            "the map has {} cells and the weakness picture {}, not {rows} x {cols}",
            map.len(),
            weakness.len()
        ));
    }
    let (map_b, weak_b) = (map.as_bytes(), weakness.as_bytes());
    let mut reasons = BTreeMap::new();
    for d in &dead_lines {
        let w: Vec<&str> = d.splitn(4, ' ').collect();
        let cell = match (
            w.first().and_then(|r| r.parse::<usize>().ok()),
            w.get(1).and_then(|c| c.parse::<usize>().ok()),
        ) {
            (Some(r), Some(c)) if r < rows && c < cols => r * cols + c,
            _ => return Err(format!("bad dead line `dead {d}`")),
        };
        if !is_ant(map_b[cell]) {
            return Err(format!("`dead {d}`: no ant there on the map"));
        }
        reasons.insert(cell, (cell / cols, w.get(3).copied().unwrap_or("").to_string()));
    }
    let mut ants = Vec::new();
    for (cell, &c) in map_b.iter().enumerate() {
        if !is_ant(c) {
            continue;
        }
        let mut fate = AntFate {
            weakness: weak_b[cell] as char,
            dead: false,
            reason: String::new(),
            enemy: (0, 0),
        };
        if let Some((r, reason)) = reasons.get(&cell) {
            fate.dead = true;
            fate.reason = reason.clone();
            let words: Vec<&str> = reason.split(' ').collect();
            if words.len() >= 4 && words[0] == "focus" && words[1] == "by" {
                let (r2, c2): (i64, i64) = match (words[2].parse(), words[3].parse()) {
                    (Ok(a), Ok(b)) => (a, b),
                    _ => return Err(format!("bad focus reason `{reason}`")),
                };
                let wrap = |delta: i64, size: usize| {
                    let d = delta.rem_euclid(size as i64);
                    if 2 * d > size as i64 {
                        d - size as i64
                    } else {
                        d
                    }
                };
                fate.enemy = (wrap(r2 - *r as i64, rows), wrap(c2 - (cell % cols) as i64, cols));
                fate.reason = format!("focus by @ {}", words[4..].join(" "));
            }
        }
        ants.push(fate);
    }
    let players = number("players").unwrap_or_else(|| {
        map_b
            .iter()
            .filter(|&&c| is_ant(c))
            .map(|&c| (c.to_ascii_lowercase() - b'a') as usize + 1)
            .max()
            .unwrap_or(0)
    });
    Ok(Battle {
        rows,
        cols,
        players,
        radius2: number("attackradius2").unwrap_or(5) as u32,
        mode: header.get("attack").cloned().unwrap_or_else(|| "focus".to_string()),
        map,
        ants,
    })
}

/// The distinct fates, and each ant's index among them.
pub fn dictionary(battle: &Battle) -> (Vec<AntFate>, Vec<usize>) {
    let mut index: BTreeMap<&AntFate, usize> = BTreeMap::new();
    for ant in &battle.ants {
        let next = index.len();
        index.entry(ant).or_insert(next);
    }
    let mut fates = vec![None; index.len()];
    for (fate, &i) in &index {
        fates[i] = Some((*fate).clone());
    }
    let codes = battle.ants.iter().map(|a| index[a]).collect();
    (fates.into_iter().flatten().collect(), codes)
}

/// `codes` written in `width` characters each of [`ALPHABET`].
pub fn pack(codes: &[usize], width: usize) -> String {
    let alphabet = ALPHABET.as_bytes();
    let base = alphabet.len();
    let mut packed = String::with_capacity(codes.len() * width);
    for &code in codes {
        let mut digits = [0u8; 8];
        let mut rest = code;
        for d in digits[..width].iter_mut().rev() {
            *d = alphabet[rest % base];
            rest /= base;
        }
        packed.extend(digits[..width].iter().map(|&b| b as char));
    }
    packed
}

/// The inverse of [`pack`] (for tests).
pub fn unpack(packed: &str, width: usize) -> Vec<usize> {
    let base = ALPHABET.len();
    packed
        .as_bytes()
        .chunks(width)
        .map(|chunk| {
            chunk
                .iter()
                .fold(0, |acc, &b| acc * base + ALPHABET.bytes().position(|a| a == b).unwrap_or(0))
        })
        .collect()
}

pub fn to_json(battle: &Battle) -> Json {
    let (fates, codes) = dictionary(battle);
    let mut width = 1;
    while ALPHABET.len().pow(width as u32) < fates.len().max(1) {
        width += 1;
    }
    let fates = fates.iter().map(|f| {
        Json::Array(vec![
            Json::string(&f.weakness.to_string()),
            Json::Number(f.dead.into()),
            Json::string(&f.reason),
            Json::Number(f.enemy.0),
            Json::Number(f.enemy.1),
        ])
    });
    json::object(vec![
        ("kind", Json::string("ants_battle")),
        ("rows", Json::Number(battle.rows as i64)),
        ("cols", Json::Number(battle.cols as i64)),
        ("players", Json::Number(battle.players as i64)),
        ("radius2", Json::Number(battle.radius2.into())),
        ("mode", Json::string(&battle.mode)),
        ("map", Json::string(&battle.map)),
        ("alphabet", Json::string(ALPHABET)),
        ("width", Json::Number(width as i64)),
        ("fates", Json::Array(fates.collect())),
        ("codes", Json::string(&pack(&codes, width))),
    ])
}
