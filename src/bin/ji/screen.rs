//! What goes on the screen: widths in terminal columns, every line fitted
//! to 80 columns, and the screens that are tables or lists (the rules, the
//! moves on offer, the progress line). Typed text is made safe for a
//! terminal by the shared `show` before it gets here.

use std::io::{self, Write};

use crate::model::Model;
use crate::variant::bits;

/// The terminal width every screen fits.
pub const COLUMNS: usize = 80;

/// Terminal columns: 2 per East Asian wide character.
pub fn width(s: &str) -> usize {
    let wide = |c: char| {
        matches!(c as u32, 0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF
            | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xA000..=0xA4CF | 0xAC00..=0xD7A3
            | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6
            | 0x1F300..=0x1F64F | 0x1F900..=0x1F9FF | 0x20000..=0x3FFFD)
    };
    s.chars().map(|c| if wide(c) { 2 } else { 1 }).sum()
}

/// `line` cut at spaces into lines of at most `COLUMNS` columns, each
/// continuation indented two columns past the line's own indent; a word
/// too long for a line is cut where it must be. The screens are laid out
/// to fit; this keeps a long custom skill name from overflowing.
pub fn wrap(line: &str) -> String {
    if width(line) <= COLUMNS {
        return line.to_string();
    }
    let lead = line.len() - line.trim_start_matches(' ').len();
    let indent = " ".repeat((lead + 2).min(8));
    let mut rows = Vec::new();
    let mut row = " ".repeat(lead);
    let mut fresh = true; // no word on `row` yet
    for word in line[lead..].split(' ') {
        if !fresh && width(&row) + 1 + width(word) > COLUMNS {
            rows.push(std::mem::replace(&mut row, indent.clone()));
            fresh = true;
        }
        if !fresh {
            row.push(' ');
        }
        for c in word.chars() {
            let long = width(&row) + width(c.encode_utf8(&mut [0; 4])) > COLUMNS;
            if long && row.len() > indent.len() {
                rows.push(std::mem::replace(&mut row, indent.clone()));
            }
            row.push(c);
        }
        fresh = false;
    }
    rows.push(row);
    let rows: Vec<&str> = rows.iter().map(|r| r.trim_end()).collect();
    rows.join("\n")
}

/// A writer that wraps every complete line it is given (`wrap`) and
/// passes a partial line through at `flush` (a prompt, a progress line
/// redrawn with `\r`).
pub struct Fit<W: Write> {
    pub inner: W,
    pending: Vec<u8>,
}

impl<W: Write> Fit<W> {
    pub fn new(inner: W) -> Fit<W> {
        Fit { inner, pending: Vec::new() }
    }
}

impl<W: Write> Write for Fit<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line[..end]);
            let row = text.rsplit('\r').next().unwrap_or("");
            let head = &text[..text.len() - row.len()];
            self.inner.write_all(head.as_bytes())?;
            self.inner.write_all(wrap(row).as_bytes())?;
            self.inner.write_all(b"\n")?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.write_all(&self.pending)?;
        self.pending.clear();
        self.inner.flush()
    }
}

/// The rules' first lines, before the table.
const RULES_HEAD: &str = "rules: you and the AI play a skill at the same time. If one beats the
other, its player wins; otherwise both pay or gain 集 (charge) and play
goes on. Both start with 0 集; a skill needs `needs` 集 or more to play.";

/// The rules as the seed's table gives them (技能名称, 集的损益, 强于),
/// with the English name, the alias to type, and the 集 each skill needs.
/// "Beaten by" (弱于) would not fit 80 columns beside them; it follows from
/// "beats".
pub fn rules(model: &Model) -> String {
    let names = &model.names;
    let list = |xs: Vec<usize>| match xs.len() {
        0 => "-".to_string(),
        _ => xs.iter().map(|&x| &*names.labels[x]).collect::<Vec<_>>().join(" "),
    };
    let mut rows = vec![["skill", "alias", "集", "needs", "beats"].map(String::from)];
    for (x, s) in model.variant.skills.iter().enumerate() {
        let gain = match s.delta {
            d if d > 0 => format!("gains {d}"),
            d => format!("costs {}", -(d as i128)),
        };
        rows.push([
            names.named(x),
            names.aliases[x].clone().unwrap_or_else(|| "-".into()),
            gain,
            s.req.to_string(),
            list((0..model.n).filter(|&y| model.beats(x, y)).collect()),
        ]);
    }
    let mut cols = [0; 5];
    for row in &rows {
        for (w, cell) in cols.iter_mut().zip(row) {
            *w = (*w).max(width(cell));
        }
    }
    let mut text = format!("{RULES_HEAD}\n");
    for row in &rows {
        let cells = row.iter().zip(cols);
        let line: String = cells.map(|(c, w)| c.clone() + &" ".repeat(w - width(c) + 2)).collect();
        text = text + line.trim_end() + "\n";
    }
    let v = &model.variant;
    if v.lasting() {
        text += "lasting effects: when a skill meets one it names in a round that goes\n\
                 on, the other side loses what it takes for the rest of the game\n";
        for x in 0..model.n {
            for y in (0..model.n).filter(|&y| v.takes(x, y) != 0) {
                let (met, taken) = (&names.labels[y], list(bits(v.takes(x, y)).collect()));
                text += &format!("  {} meets {met}: takes {taken}\n", names.labels[x]);
            }
        }
    }
    text
}

/// The progress line redrawn on a terminal during `t`: at most 77 columns
/// for any count `t` accepts, so it never wraps (a wrapped line cannot be
/// redrawn with `\r`).
pub fn progress(
    done: u64,
    total: u64,
    fitness: f64,
    exploitability: f64,
    left_secs: u64,
) -> String {
    let left = match left_secs {
        s if s < 120 => format!("{s} s"),
        s if s < 7200 => format!("{} min", s / 60),
        s => format!("{} h", s / 3600),
    };
    format!("gen {done}/{total}: best fitness {fitness:.6}, exploitability {exploitability:.6}, {left} left")
}

/// `head`, then `items` separated by commas on lines of at most `COLUMNS`
/// columns, indented two; an item is split only if it cannot fit a line.
pub fn listed(head: &str, items: &[String]) -> String {
    let mut text = head.to_string();
    let mut line = String::from(" ");
    for (i, item) in items.iter().enumerate() {
        let item = if i + 1 < items.len() { format!("{item},") } else { item.clone() };
        if width(&line) + 1 + width(&item) > COLUMNS && !line.trim().is_empty() {
            text = text + "\n" + &line;
            line = String::from(" ");
        }
        line = line + " " + &item;
    }
    if !line.trim().is_empty() {
        text = text + "\n" + &line;
    }
    text
}
