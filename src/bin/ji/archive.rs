//! The archive: the population kept between sessions as plain text
//! (docs/ji_trainer.md, "Archive format"), read with every line checked and
//! written atomically.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::failure::{BadLine, Failure};
use crate::model::Model;
use crate::rng::Rng;
use crate::show::show;
use crate::train::Trainer;
use crate::variant::{bits, parse_variant, MAX_SKILLS};

/// The archive's first line: its format and version.
const ARCHIVE_MAGIC: &str = "ji-archive 1";
/// The first line for a variant with lasting effects: its states name the
/// lost sets, and a reader that knows only version 1 stops at line 1
/// instead of misreading the rest. Version 1 files read as before.
const ARCHIVE_MAGIC_LASTING: &str = "ji-archive 2";

/// A state as its archive line begins: the counts `a b`, then, in a
/// variant with lasting effects, `lost i names.. j names..` (each side's
/// lost skills in variant order: the mover's, then the opponent's).
fn state_label(model: &Model, st: usize) -> String {
    let (a, b) = model.counts(st);
    if !model.variant.lasting() {
        return format!("{a} {b}");
    }
    let lost = model.lost(st);
    let names = |set: u64| -> String {
        let named = bits(set).map(|x| format!(" {}", model.variant.skills[x].name));
        format!("{}{}", set.count_ones(), named.collect::<String>())
    };
    format!("{a} {b} lost {} {}", names(lost.own), names(lost.opp))
}
/// The largest population an archive may hold (a bound on what a corrupt
/// `population` line can make the trainer allocate and score).
const MAX_ARCHIVED: usize = 10_000;

/// The archive text: see docs/ji_trainer.md ("Archive format").
pub fn archive_text(model: &Model, t: &Trainer) -> String {
    let (g, rng, size, states) = (t.generation, t.rng.state(), t.pop.len(), model.states);
    let magic = if model.variant.lasting() { ARCHIVE_MAGIC_LASTING } else { ARCHIVE_MAGIC };
    let mut s = format!("{magic}\nvariant {}generation {g}\n", model.variant.text());
    s += &format!("rng {rng:016x}\npopulation {size} {states}\n");
    for (i, ind) in t.pop.iter().enumerate() {
        s += &format!("individual {i}\n");
        for st in 0..model.states {
            s += &state_label(model, st);
            for g in &ind.genes[model.offset[st]..model.offset[st + 1]] {
                s += &format!(" {g}");
            }
            s += "\n";
        }
    }
    s + "end\n"
}

/// Reads an archive: (generation, rng, population), refusing a corrupt one
/// or one for another variant. The caller adds the file to errors.
pub fn parse_archive(text: &[u8], file: &str, model: &Model) -> Result<Archive, Failure> {
    read_archive(text, file, model).map_err(|e| match e {
        ArchiveError::Line(bad) => bad.in_file(file),
        ArchiveError::Variant(failure) => failure,
    })
}

/// What an archive holds besides the variant.
pub struct Archive {
    pub generation: u64,
    pub rng: Rng,
    pub population: Vec<Vec<f64>>,
}

/// A bad archive line, or a bad variant inside it (already in its file).
enum ArchiveError {
    Line(BadLine),
    Variant(Failure),
}

impl From<BadLine> for ArchiveError {
    fn from(bad: BadLine) -> ArchiveError {
        ArchiveError::Line(bad)
    }
}

fn read_archive(text: &[u8], file: &str, model: &Model) -> Result<Archive, ArchiveError> {
    fn refuse<T>(line: usize, what: String) -> Result<T, ArchiveError> {
        Err(ArchiveError::Line(BadLine { line, what }))
    }
    let text = match std::str::from_utf8(text) {
        Ok(t) => t,
        Err(e) => {
            let at = e.valid_up_to();
            let line = 1 + text[..at].iter().filter(|&&b| b == b'\n').count();
            return refuse(line, format!("not UTF-8 text (byte {at})"));
        }
    };
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    // Line `l`; lines are read in order, so a missing one ends the archive.
    let line = |l: usize| -> Result<&str, BadLine> {
        let end = || BadLine { line: l, what: "archive ends early (truncated?)".into() };
        lines.get(l - 1).copied().ok_or_else(end)
    };
    // The value of line l if it reads `key value`.
    let field = |l: usize, key: &str| line(l).map(|t| t.strip_prefix(key));
    let expected = |l: usize, what: &str| BadLine { line: l, what: format!("expected '{what}'") };
    if line(1)? != ARCHIVE_MAGIC && line(1)? != ARCHIVE_MAGIC_LASTING {
        return refuse(1, format!("not a ji archive (expected '{ARCHIVE_MAGIC}')"));
    }
    let n = (field(2, "variant ")?.and_then(|r| r.trim().parse::<usize>().ok()))
        .filter(|n| (1..=MAX_SKILLS).contains(n))
        .ok_or_else(|| expected(2, "variant N"))?;
    let mut vt = format!("{n}\n");
    for l in 3..3 + n {
        vt = vt + line(l)? + "\n";
    }
    // The lasting section, if any: `lasting m`, then m records.
    let mut l = 3 + n;
    if let Some(m) = field(l, "lasting ")? {
        let m = (m.parse::<usize>().ok())
            .filter(|m| (1..=n * n).contains(m))
            .ok_or_else(|| expected(l, "lasting M"))?;
        for at in l..l + 1 + m {
            vt = vt + line(at)? + "\n";
        }
        l += 1 + m;
    }
    let archived = parse_variant(vt.as_bytes(), file, 1).map_err(ArchiveError::Variant)?;
    if archived != model.variant {
        let why = if archived.skills.len() != model.n {
            format!("{} skills, this variant has {}", archived.skills.len(), model.n)
        } else {
            let differs = |i: &usize| {
                archived.skills[*i] != model.variant.skills[*i]
                    || archived.beats[*i] != model.variant.beats[*i]
            };
            match (0..model.n).find(differs) {
                Some(i) => {
                    let (there, here) = (archived.skill_line(i), model.variant.skill_line(i));
                    format!("skill {} is '{there}' there, '{here}' here", i + 1)
                }
                None => "other lasting effects".to_string(),
            }
        };
        return refuse(2, format!("archive is for another variant ({why})"));
    }
    let generation = (field(l, "generation ")?.and_then(|r| r.parse::<u64>().ok()))
        .ok_or_else(|| expected(l, "generation G"))?;
    l += 1;
    let hex = field(l, "rng ")?.and_then(|r| u64::from_str_radix(r, 16).ok());
    let rng = Rng::new(hex.ok_or_else(|| expected(l, "rng HEX"))?);
    l += 1;
    let dims: Vec<usize> = match field(l, "population ")? {
        Some(r) => r.split(' ').filter_map(|x| x.parse().ok()).collect(),
        None => vec![],
    };
    let states = model.states;
    if dims.len() != 2 || dims[0] < 1 || dims[0] > MAX_ARCHIVED || dims[1] != states {
        let what = format!("expected 'population P {states}' with 1 <= P <= {MAX_ARCHIVED}");
        return refuse(l, what);
    }
    let mut pop = Vec::new();
    for i in 0..dims[0] {
        l += 1;
        if line(l)? != format!("individual {i}") {
            return Err(expected(l, &format!("individual {i}")).into());
        }
        let mut genes = Vec::new();
        for st in 0..states {
            l += 1;
            let label = state_label(model, st);
            // The weights after the label and one space (none: no weights).
            let weights = match line(l)?.strip_prefix(&label) {
                Some("") => None,
                Some(rest) if rest.starts_with(' ') => Some(&rest[1..]),
                _ => {
                    let what = format!("expected the weights of state {}", show(label.as_bytes()));
                    return refuse(l, what);
                }
            };
            let start = genes.len();
            for w in weights.into_iter().flat_map(|w| w.split(' ')) {
                match w.parse::<f64>() {
                    Ok(x) if x.is_finite() && x >= 0.0 => genes.push(x),
                    _ => return refuse(l, format!("bad weight '{}'", show(w.as_bytes()))),
                }
            }
            let (want, found) = (model.offset[st + 1] - model.offset[st], genes.len() - start);
            if found != want {
                let label = show(label.as_bytes());
                let what = format!("state {label} needs {want} weights, found {found}");
                return refuse(l, what);
            }
        }
        pop.push(genes);
    }
    l += 1;
    if line(l)? != "end" {
        return Err(expected(l, "end").into());
    }
    if l < lines.len() {
        return refuse(l + 1, "text after 'end'".into());
    }
    Ok(Archive { generation, rng, population: pop })
}

/// Writes the archive atomically (a synced temporary file renamed over the
/// old one), so that a failure at any point leaves the previous one whole.
pub fn save_archive(path: &Path, text: &str) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
