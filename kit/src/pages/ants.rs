//! Ants: the battle a page draws, from the input map and `ants_battle
//! --explain` (each ant's weakness and the reason each dead ant died).
//!
//! Packed for a 2000 x 2000 map: the map is one string of one character
//! per cell (the input's own letters), and every ant gets one fixed-width
//! code into a dictionary of distinct (weakness, dead, reason) entries,
//! where a focus reason names its enemy by the offset from the dead ant,
//! not by its cell, so that few distinct entries exist.
//!
//! Read as it comes, for a 5000 x 5000 map (445 MB of `--explain`): the
//! solver's lines go one by one to a [`Reader`] that keeps one byte of
//! weakness per cell and one code per ant, and the page's data is written
//! from those ([`write_data`]); nothing holds the output or the page whole.

use super::json::{self, Json};
use super::page::Lines;
use crate::error;
use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};
use std::path::Path;

const SCRIPT: &str = include_str!("ants.js");

/// The code alphabet: printable ASCII without `<` and `\` (safe, unescaped,
/// inside a JSON string inside `<script>`); the page gets it too.
pub const ALPHABET: &str = concat!(
    "#$%&'()*+,-./0123456789:;=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`",
    "abcdefghijklmnopqrstuvwxyz{|}~"
);

/// What the page knows of one ant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AntFate {
    /// `--explain`'s weakness character: `0`..`9`, or `+` for 10 or more.
    pub weakness: char,
    pub dead: bool,
    /// The REASON of its `dead` line; a focus reason's `by R C` is written
    /// `by @` with the enemy's offset in `enemy`.
    pub reason: String,
    pub enemy: (i64, i64),
}

/// The battle as the page draws it.
#[derive(Debug)]
pub struct Battle {
    pub rows: usize,
    pub cols: usize,
    pub players: usize,
    pub radius2: u32,
    pub mode: String,
    /// The map before the battle, row-major, one input character per cell.
    pub map: Vec<u8>,
    /// The distinct fates, in the order first met.
    pub fates: Vec<AntFate>,
    /// Each ant's index into `fates`, the ants in row-major order.
    pub codes: Vec<u32>,
}

/// `a`..`j` an ant, `A`..`J` an ant on its own hill (owners 0..9).
pub fn is_ant(c: u8) -> bool {
    (b'a'..=b'j').contains(&c) || (b'A'..=b'J').contains(&c)
}

/// The map of an input: its `m` rows run together.
pub fn input_map(input: &[u8]) -> Vec<u8> {
    let mut map = Vec::new();
    for line in input.split(|&b| b == b'\n') {
        if let Some(row) = trim(line).strip_prefix(b"m ") {
            map.extend_from_slice(trim(row));
        }
    }
    map
}

/// `line` without ASCII whitespace at either end.
fn trim(line: &[u8]) -> &[u8] {
    let start = line.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(line.len());
    let end = line.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(start, |e| e + 1);
    &line[start..end]
}

/// The page: `ants_battle --explain` on `input`, its output read line by
/// line as it comes (445 MB for a 5000 x 5000 map: never held), and the
/// page written as it is packed.
///
/// # Errors
/// The errors of [`super::page::run_streamed`]; a run error when our solver
/// refuses the case; a page error when its explanation cannot be read; a
/// write error for the page.
pub fn page(input: &[u8], solver: &Path, title: &str, page: &mut dyn Write) -> error::Result<()> {
    let mut reader = Reader::new(input_map(input));
    let run = {
        let mut lines = Lines::new(|line| reader.line(line));
        let run = super::page::run_streamed(solver, &["--explain"], input, &mut |c| lines.feed(c))?;
        lines.finish();
        run
    };
    if run.code != 0 {
        return Err(run.refusal("ants_battle"));
    }
    let battle = reader.finish().map_err(error::Error::page)?;
    super::page::write_page(page, title, SCRIPT, &mut |out| write_data(&battle, out))
        .map_err(super::page::written)
}

/// The battle of `input`, from the solver's whole `--explain` output (for
/// tests: [`page`] reads it as it comes).
///
/// # Errors
/// What in `input` or `output` cannot be read, as a message.
pub fn battle(input: &str, output: &str) -> Result<Battle, String> {
    let mut reader = Reader::new(input_map(input.as_bytes()));
    let mut lines = Lines::new(|line| reader.line(line));
    lines.feed(output.as_bytes());
    lines.finish();
    reader.finish()
}

/// Reads `--explain`'s lines one by one: the header (before `explain`),
/// the `w` rows, then the `dead` lines, which come in row-major order.
struct Reader {
    header: BTreeMap<String, String>,
    map: Vec<u8>,
    explaining: bool,
    weakness: Vec<u8>,
    fates: Vec<AntFate>,
    index: HashMap<AntFate, u32>,
    /// Per ant, its fate's index; [`NO_FATE`] until its `dead` line or the end.
    codes: Vec<u32>,
    /// The last dead ant's cell and its index among the ants (the next
    /// one is found from there: the lines are in row-major order).
    cursor: (usize, usize),
    /// A reused key, so that a line allocates only for a new fate.
    scratch: AntFate,
    error: Option<String>,
}

const NO_FATE: u32 = u32::MAX;

impl Reader {
    fn new(map: Vec<u8>) -> Reader {
        let ants = map.iter().filter(|&&c| is_ant(c)).count();
        Reader {
            header: BTreeMap::new(),
            map,
            explaining: false,
            weakness: Vec::new(),
            fates: Vec::new(),
            index: HashMap::new(),
            codes: vec![NO_FATE; ants],
            cursor: (0, 0),
            scratch: AntFate { weakness: '0', dead: false, reason: String::new(), enemy: (0, 0) },
            error: None,
        }
    }

    fn line(&mut self, line: &[u8]) {
        if self.error.is_some() {
            return;
        }
        if let Err(e) = self.read(line) {
            self.error = Some(e);
        }
    }

    fn read(&mut self, line: &[u8]) -> Result<(), String> {
        if line == b"explain" {
            self.explaining = true;
            let cells = self.size().map(|(r, c)| r * c);
            if cells != Some(self.map.len()) {
                return Err(format!(
                    "the map has {} cells, not rows x cols {:?}",
                    self.map.len(),
                    self.size()
                ));
            }
        } else if !self.explaining {
            if !line.starts_with(b"m ") {
                let text = String::from_utf8_lossy(line);
                if let Some((key, value)) = text.split_once(' ') {
                    self.header.insert(key.to_string(), value.to_string());
                }
            }
        } else if let Some(w) = line.strip_prefix(b"w ") {
            self.weakness.extend_from_slice(w);
        } else if let Some(d) = line.strip_prefix(b"dead ") {
            self.dead(std::str::from_utf8(d).map_err(|_| "a dead line is not UTF-8")?)?;
        }
        Ok(())
    }

    fn number(&self, key: &str) -> Option<usize> {
        self.header.get(key).and_then(|v| v.parse().ok())
    }

    fn size(&self) -> Option<(usize, usize)> {
        Some((self.number("rows")?, self.number("cols")?))
    }

    /// The index among the ants of the ant in `cell`.
    fn ant_at(&mut self, cell: usize) -> usize {
        let (mut at, mut ant) = self.cursor;
        if cell < at {
            (at, ant) = (0, 0);
        }
        ant += self.map[at..cell].iter().filter(|&&c| is_ant(c)).count();
        self.cursor = (cell, ant);
        ant
    }

    fn dead(&mut self, d: &str) -> Result<(), String> {
        let (rows, cols) = self.size().ok_or("ants_battle printed no `rows` and `cols`")?;
        if self.weakness.len() != rows * cols {
            return Err(format!("the weakness picture has {} cells", self.weakness.len()));
        }
        let w: Vec<&str> = d.splitn(4, ' ').collect();
        let (r, c) = match (
            w.first().and_then(|r| r.parse::<usize>().ok()),
            w.get(1).and_then(|c| c.parse::<usize>().ok()),
        ) {
            (Some(r), Some(c)) if r < rows && c < cols => (r, c),
            _ => return Err(format!("bad dead line `dead {d}`")),
        };
        let cell = r * cols + c;
        if !is_ant(self.map[cell]) {
            return Err(format!("`dead {d}`: no ant there on the map"));
        }
        let reason = w.get(3).copied().unwrap_or("");
        let fate = &mut self.scratch;
        fate.weakness = self.weakness[cell] as char;
        fate.dead = true;
        fate.reason.clear();
        fate.enemy = (0, 0);
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
            fate.enemy = (wrap(r2 - r as i64, rows), wrap(c2 - c as i64, cols));
            fate.reason.push_str("focus by @");
            for word in &words[4..] {
                fate.reason.push(' ');
                fate.reason.push_str(word);
            }
        } else {
            fate.reason.push_str(reason);
        }
        let code = self.code_of_scratch();
        let ant = self.ant_at(cell);
        self.codes[ant] = code;
        Ok(())
    }

    /// The index of the fate in `scratch`, a new one if it is new.
    fn code_of_scratch(&mut self) -> u32 {
        if let Some(&code) = self.index.get(&self.scratch) {
            return code;
        }
        let code = self.fates.len() as u32;
        self.fates.push(self.scratch.clone());
        self.index.insert(self.scratch.clone(), code);
        code
    }

    fn finish(mut self) -> Result<Battle, String> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let (rows, cols) = self.size().ok_or("ants_battle printed no `rows` and `cols`")?;
        if self.map.len() != rows * cols || self.weakness.len() != rows * cols {
            return Err(format!(
                "the map has {} cells and the weakness picture {}, not {rows} x {cols}",
                self.map.len(),
                self.weakness.len()
            ));
        }
        // The ants without a dead line survive.
        let mut ant = 0;
        for cell in 0..self.map.len() {
            if !is_ant(self.map[cell]) {
                continue;
            }
            if self.codes[ant] == NO_FATE {
                let fate = &mut self.scratch;
                fate.weakness = self.weakness[cell] as char;
                fate.dead = false;
                fate.reason.clear();
                fate.enemy = (0, 0);
                self.codes[ant] = self.code_of_scratch();
            }
            ant += 1;
        }
        let players = self.number("players").unwrap_or_else(|| {
            let owner = |c: u8| (c.to_ascii_lowercase() - b'a') as usize + 1;
            self.map.iter().filter(|&&c| is_ant(c)).map(|&c| owner(c)).max().unwrap_or(0)
        });
        Ok(Battle {
            rows,
            cols,
            players,
            radius2: self.number("attackradius2").unwrap_or(5) as u32,
            mode: self.header.get("attack").cloned().unwrap_or_else(|| "focus".to_string()),
            map: self.map,
            fates: self.fates,
            codes: self.codes,
        })
    }
}

/// The characters per code: enough for every fate.
pub fn width(battle: &Battle) -> usize {
    let mut width = 1;
    while ALPHABET.len().pow(width as u32) < battle.fates.len().max(1) {
        width += 1;
    }
    width
}

/// `codes` written in `width` characters each of [`ALPHABET`].
pub fn pack(codes: &[u32], width: usize) -> String {
    let alphabet = ALPHABET.as_bytes();
    let base = alphabet.len();
    let mut packed = String::with_capacity(codes.len() * width);
    for &code in codes {
        let mut digits = [0u8; 8];
        let mut rest = code as usize;
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

/// The page's data, written in pieces: the map and the codes (25 MB each
/// for 5000 x 5000) straight from the battle, never copied into a string.
pub fn write_data(battle: &Battle, out: &mut dyn Write) -> io::Result<()> {
    let width = width(battle);
    let fates = battle.fates.iter().map(|f| {
        Json::Array(vec![
            Json::string(&f.weakness.to_string()),
            Json::Number(f.dead.into()),
            Json::string(&f.reason),
            Json::Number(f.enemy.0),
            Json::Number(f.enemy.1),
        ])
    });
    let head = json::object(vec![
        ("kind", Json::string("ants_battle")),
        ("rows", Json::Number(battle.rows as i64)),
        ("cols", Json::Number(battle.cols as i64)),
        ("players", Json::Number(battle.players as i64)),
        ("radius2", Json::Number(battle.radius2.into())),
        ("mode", Json::string(&battle.mode)),
        ("alphabet", Json::string(ALPHABET)),
        ("width", Json::Number(width as i64)),
        ("fates", Json::Array(fates.collect())),
    ])
    .to_string();
    // The object without its closing brace, then the two long strings.
    out.write_all(&head.as_bytes()[..head.len() - 1])?;
    out.write_all(b",\"map\":\"")?;
    // Map characters are letters, digits, `.`, `%` and `*`: nothing to
    // escape (anything else is replaced, never breaks the script).
    let safe = |b: u8| b.is_ascii_graphic() && !matches!(b, b'"' | b'\\' | b'<');
    for chunk in battle.map.chunks(1 << 16) {
        if chunk.iter().all(|&b| safe(b)) {
            out.write_all(chunk)?;
        } else {
            let cleaned: Vec<u8> = chunk.iter().map(|&b| if safe(b) { b } else { b'?' }).collect();
            out.write_all(&cleaned)?;
        }
    }
    out.write_all(b"\",\"codes\":\"")?;
    for codes in battle.codes.chunks(1 << 14) {
        out.write_all(pack(codes, width).as_bytes())?;
    }
    out.write_all(b"\"}")
}

/// The page's data as text (for tests).
pub fn data_text(battle: &Battle) -> String {
    let mut data = Vec::new();
    write_data(battle, &mut data).expect("a Vec takes every write");
    String::from_utf8(data).expect("the data is ASCII")
}
