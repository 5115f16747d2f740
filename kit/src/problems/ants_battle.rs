//! Ants battle: header lines `rows R`, `cols C`, optional `players P`,
//! `attackradius2 N`, `attack MODE`, then R lines `m ROW`.

use super::{Problem, Profile, Shrinkable};
use crate::error::Result;
use crate::rng::Rng;
use std::io::Write;
use std::path::Path;

pub struct AntsBattle;

const MODES: [&str; 4] = ["focus", "closest", "support", "damage"];

/// The profiles drawn by [`generate`] (`big` and `big5000` have their own
/// generator): every step matches on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Random,
    TinyTorus,
    Dense,
    TenPlayers,
    Hills,
    DamageNear1,
    ClosestChains,
}

const PROFILES: &[Profile] = &[
    Profile {
        name: "random",
        generate: |rng| generate(Kind::Random, rng).render(),
        about: "maps up to 60x60, 2..6 players, any attack mode and radius",
    },
    Profile {
        name: "tiny_torus",
        generate: |rng| generate(Kind::TinyTorus, rng).render(),
        about: "1..6 x 1..6 tori with r2 >= 8: one enemy counted several times",
    },
    Profile {
        name: "dense",
        generate: |rng| generate(Kind::Dense, rng).render(),
        about: "60-90% of the cells hold ants, 3..10 players, any mode",
    },
    Profile {
        name: "ten_players",
        generate: |rng| generate(Kind::TenPlayers, rng).render(),
        about: "players 10, ants of all letters a..j, any mode",
    },
    Profile {
        name: "hills",
        generate: |rng| generate(Kind::Hills, rng).render(),
        about: "hills (digits) and ants on their own hills (A..J) among enemies",
    },
    Profile {
        name: "damage_near_1",
        generate: |rng| generate(Kind::DamageNear1, rng).render(),
        about: "attack damage with r2 <= 8: received totals of exactly 1 are common",
    },
    Profile {
        name: "closest_chains",
        generate: |rng| generate(Kind::ClosestChains, rng).render(),
        about: "attack closest: chains of alternating enemies at several distances",
    },
    Profile {
        name: "big",
        generate: |rng| big(rng, 2000),
        about: "the benchmark map: 2000x2000, 40% ants, 4 players, 2% water, 1% food, focus r2=5",
    },
    Profile {
        name: "big5000",
        generate: |rng| big(rng, 5000),
        about: "the same at 5000x5000 (25,000,000 cells, about 25 MB)",
    },
];

/// One battle. `None` for a header line the input leaves out.
#[derive(Clone, Debug, PartialEq)]
struct Battle {
    players: Option<u32>,
    r2: Option<u32>,
    mode: Option<&'static str>,
    /// Rows of cells, all of one length >= 1.
    cells: Vec<Vec<u8>>,
}

/// The owner of an ant cell (`a`..`j`, `A`..`J`).
fn owner(c: u8) -> Option<u32> {
    match c {
        b'a'..=b'j' => Some((c - b'a') as u32),
        b'A'..=b'J' => Some((c - b'A') as u32),
        _ => None,
    }
}

/// The player a cell names (an ant or a hill digit).
fn player(c: u8) -> Option<u32> {
    match c {
        b'0'..=b'9' => Some((c - b'0') as u32),
        _ => owner(c),
    }
}

impl Battle {
    fn rows(&self) -> usize {
        self.cells.len()
    }

    fn cols(&self) -> usize {
        self.cells[0].len()
    }

    fn render(&self) -> String {
        let mut s = String::with_capacity(self.rows() * (self.cols() + 3) + 80);
        s.push_str(&format!("rows {}\ncols {}\n", self.rows(), self.cols()));
        if let Some(p) = self.players {
            s.push_str(&format!("players {p}\n"));
        }
        if let Some(r2) = self.r2 {
            s.push_str(&format!("attackradius2 {r2}\n"));
        }
        if let Some(mode) = self.mode {
            s.push_str(&format!("attack {mode}\n"));
        }
        for row in &self.cells {
            s.push_str("m ");
            // Cells are ASCII by construction.
            s.push_str(std::str::from_utf8(row).expect("ASCII cells"));
            s.push('\n');
        }
        s
    }

    /// Reads a battle (blank and `#` lines skipped, headers in any order);
    /// `None` if it is not valid.
    fn parse(input: &str) -> Option<Battle> {
        let (mut rows, mut cols) = (None, None);
        let mut b = Battle { players: None, r2: None, mode: None, cells: Vec::new() };
        for line in input.lines() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "rows" => rows = Some(value.trim().parse::<usize>().ok()?),
                "cols" => cols = Some(value.trim().parse::<usize>().ok()?),
                "players" => b.players = Some(value.trim().parse().ok()?),
                "attackradius2" => b.r2 = Some(value.trim().parse().ok()?),
                "attack" => b.mode = Some(*MODES.iter().find(|m| **m == value.trim())?),
                "m" => {
                    let row = value.as_bytes().to_vec();
                    let ok = |c: &u8| b".%*0123456789".contains(c) || owner(*c).is_some();
                    if row.len() != cols? || !row.iter().all(ok) {
                        return None;
                    }
                    b.cells.push(row);
                }
                _ => {}
            }
        }
        let valid = rows? >= 1
            && cols? >= 1
            && b.cells.len() == rows?
            && b.players.map_or(true, |p| (2..=10).contains(&p))
            && b.r2.map_or(true, |r| r <= 100)
            && b.cells.iter().flatten().all(|&c| match (player(c), b.players) {
                (Some(o), Some(p)) => o < p,
                _ => true,
            });
        valid.then_some(b)
    }
}

/// Draws the header the way inputs vary: `players` usually present (at
/// least the highest player named + 1), `attackradius2` and `attack`
/// present when they differ from the defaults, and sometimes when not.
fn header(rng: &mut Rng, b: &mut Battle, r2: u32, mode: &'static str) {
    let need = b.cells.iter().flatten().filter_map(|&c| player(c)).max();
    let lo = need.map_or(2, |o| (o + 1).max(2));
    if rng.chance(0.75) {
        b.players = Some(if rng.chance(0.7) { lo } else { rng.range(lo as i64, 10) as u32 });
    }
    if r2 != 5 || rng.chance(0.3) {
        b.r2 = Some(r2);
    }
    if mode != "focus" || rng.chance(0.3) {
        b.mode = Some(mode);
    }
}

fn blank(rows: usize, cols: usize) -> Vec<Vec<u8>> {
    vec![vec![b'.'; cols]; rows]
}

/// `lo..=hi` distinct owners: usually 0..k, sometimes a scattered subset
/// of 0..10.
fn owners(rng: &mut Rng, lo: usize, hi: usize) -> Vec<u32> {
    let k = size(rng, lo, hi);
    let mut all: Vec<u32> = (0..10).collect();
    if rng.chance(0.75) {
        all.truncate(k);
        return all;
    }
    rng.shuffle(&mut all);
    let mut some = all[..k].to_vec();
    some.sort_unstable();
    some
}

fn ant(o: u32, on_hill: bool) -> u8 {
    if on_hill {
        b'A' + o as u8
    } else {
        b'a' + o as u8
    }
}

/// Independent fill: per-mille shares of ants, water, food and hills.
fn scatter(rng: &mut Rng, cells: &mut [Vec<u8>], who: &[u32], shares: [u32; 4]) {
    let [ants, water, food, hills] = shares;
    let uphill = if hills > 0 { *rng.pick(&[20, 100, 250]) } else { 0 };
    for c in cells.iter_mut().flatten() {
        let x = rng.below(1000) as u32;
        *c = if x < ants {
            ant(*rng.pick(who), (rng.below(1000) as u32) < uphill)
        } else if x < ants + water {
            b'%'
        } else if x < ants + water + food {
            b'*'
        } else if x < ants + water + food + hills {
            b'0' + *rng.pick(who) as u8
        } else {
            b'.'
        };
    }
}

fn size(rng: &mut Rng, lo: usize, hi: usize) -> usize {
    rng.range(lo as i64, hi as i64) as usize
}

fn any_mode(rng: &mut Rng) -> &'static str {
    MODES[rng.below(MODES.len() as u64) as usize]
}

fn small_r2(rng: &mut Rng) -> u32 {
    *rng.pick(&[0, 1, 2, 3, 4, 5, 5, 5, 8, 9, 10, 13, 16, 25])
}

/// The benchmark map: every cell independently an ant of one of 4 players
/// (10% each), water 2%, food 1%, land the rest; focus, r2 = 5.
fn big(rng: &mut Rng, side: usize) -> String {
    let mut s = String::with_capacity(side * (side + 3) + 80);
    s.push_str(&format!("rows {side}\ncols {side}\nplayers 4\nattackradius2 5\nattack focus\n"));
    let mut row = vec![b'.'; side];
    for _ in 0..side {
        for c in row.iter_mut() {
            let x = rng.below(100) as u8;
            *c = match x {
                0..=39 => b'a' + x / 10,
                40..=41 => b'%',
                42 => b'*',
                _ => b'.',
            };
        }
        s.push_str("m ");
        s.push_str(std::str::from_utf8(&row).expect("ASCII cells"));
        s.push('\n');
    }
    s
}

/// A map as a profile draws it, before its header: the cells, the attack
/// in force, and the players line when the profile fixes it.
struct Drawn {
    cells: Vec<Vec<u8>>,
    r2: u32,
    mode: &'static str,
    players: Option<u32>,
}

/// One battle of `profile`: its map, then the header ([`header`]).
fn generate(profile: Kind, rng: &mut Rng) -> Battle {
    let drawn = match profile {
        Kind::Random => random(rng),
        Kind::TinyTorus => tiny_torus(rng),
        Kind::Dense => dense(rng),
        Kind::TenPlayers => ten_players(rng),
        Kind::Hills => hills(rng),
        Kind::DamageNear1 => damage_near_1(rng),
        Kind::ClosestChains => closest_chains(rng),
    };
    let mut b = Battle { players: None, r2: None, mode: None, cells: drawn.cells };
    header(rng, &mut b, drawn.r2, drawn.mode);
    if drawn.players.is_some() {
        b.players = drawn.players;
    }
    b
}

/// A `rows` x `cols` map of `who`'s ants, water, food and hills, each
/// share drawn.
fn random(rng: &mut Rng) -> Drawn {
    let (h, w) = (size(rng, 1, 60), size(rng, 1, 60));
    let who = owners(rng, 2, 6);
    let mut cells = blank(h, w);
    let ants = rng.range(10, 700) as u32;
    let water = rng.range(0, 150) as u32;
    let food = rng.range(0, 50) as u32;
    let hills = rng.range(0, 20) as u32;
    scatter(rng, &mut cells, &who, [ants, water, food, hills]);
    Drawn { cells, r2: small_r2(rng), mode: any_mode(rng), players: None }
}

/// A square-ish map and its owners, drawn in this order: rows and columns
/// in `side`, the owners ([`owners`] in `players`), the ants' share per
/// mille in `ants`; then filled by [`scatter`] with the ants and the fixed
/// shares `rest` of water, food and hills.
fn scattered(
    rng: &mut Rng,
    side: [usize; 2],
    players: [usize; 2],
    ants: [i64; 2],
    rest: [u32; 3],
) -> (Vec<Vec<u8>>, Vec<u32>) {
    let (h, w) = (size(rng, side[0], side[1]), size(rng, side[0], side[1]));
    let who = owners(rng, players[0], players[1]);
    let mut cells = blank(h, w);
    let ants = rng.range(ants[0], ants[1]) as u32;
    scatter(rng, &mut cells, &who, [ants, rest[0], rest[1], rest[2]]);
    (cells, who)
}

/// A map of at most 6 x 6 with a radius that reaches round the torus.
fn tiny_torus(rng: &mut Rng) -> Drawn {
    let (cells, _) = scattered(rng, [1, 6], [2, 4], [200, 1000], [0, 0, 0]);
    Drawn {
        cells,
        r2: *rng.pick(&[8, 10, 13, 18, 25, 50, 100]),
        mode: any_mode(rng),
        players: None,
    }
}

/// Ants on most cells, of 3 to 10 players.
fn dense(rng: &mut Rng) -> Drawn {
    let (cells, _) = scattered(rng, [8, 40], [3, 10], [600, 900], [30, 20, 20]);
    Drawn { cells, r2: small_r2(rng), mode: any_mode(rng), players: None }
}

/// Every letter a..j at least once, so `players 10` is needed.
fn ten_players(rng: &mut Rng) -> Drawn {
    let (h, w) = (size(rng, 10, 60), size(rng, 10, 60));
    let who: Vec<u32> = (0..10).collect();
    let mut cells = blank(h, w);
    let ants = rng.range(100, 600) as u32;
    scatter(rng, &mut cells, &who, [ants, 50, 20, 10]);
    for (o, c) in who.iter().zip(cells[0].iter_mut()) {
        *c = ant(*o, false);
    }
    Drawn { cells, r2: small_r2(rng), mode: any_mode(rng), players: Some(10) }
}

/// Hills, some with their owner's ant on them, friends and enemies around.
fn hills(rng: &mut Rng) -> Drawn {
    let (mut cells, who) = scattered(rng, [10, 40], [2, 10], [20, 200], [80, 30, 0]);
    let (h, w) = (cells.len(), cells[0].len());
    for &o in &who {
        for _ in 0..rng.range(1, 4) {
            let (r, c) = (size(rng, 0, h - 1), size(rng, 0, w - 1));
            cells[r][c] = if rng.chance(0.65) { ant(o, true) } else { b'0' + o as u8 };
            for _ in 0..rng.range(0, 6) {
                let rr = (r as i64 + rng.range(-3, 3)).rem_euclid(h as i64) as usize;
                let cc = (c as i64 + rng.range(-3, 3)).rem_euclid(w as i64) as usize;
                if cells[rr][cc] == b'.' {
                    cells[rr][cc] = ant(*rng.pick(&who), false);
                }
            }
        }
    }
    Drawn { cells, r2: small_r2(rng), mode: any_mode(rng), players: None }
}

/// Attack damage with a small radius, where received totals of exactly 1
/// are common.
fn damage_near_1(rng: &mut Rng) -> Drawn {
    let (cells, _) = scattered(rng, [4, 30], [2, 3], [150, 500], [30, 0, 0]);
    Drawn { cells, r2: *rng.pick(&[1, 1, 2, 2, 4, 5, 5, 8]), mode: "damage", players: None }
}

/// Attack closest on chains whose links all have one squared length below
/// the radius, their owners alternating so that each link joins enemies;
/// a few loose ants between.
fn closest_chains(rng: &mut Rng) -> Drawn {
    let (h, w) = (size(rng, 10, 60), size(rng, 10, 60));
    let who = owners(rng, 2, 4);
    let mut cells = blank(h, w);
    let r2 = *rng.pick(&[5, 10, 13, 17, 25, 50]);
    for _ in 0..rng.range(2, 12) {
        let (dr, dc) = loop {
            let (dr, dc) = (rng.range(0, 5), rng.range(-5, 5));
            let d = dr * dr + dc * dc;
            if d > 0 && d < r2 as i64 {
                break (dr, dc);
            }
        };
        let (mut r, mut c) = (rng.range(0, h as i64 - 1), rng.range(0, w as i64 - 1));
        let a = size(rng, 0, who.len() - 1);
        let z = (a + size(rng, 1, who.len() - 1)) % who.len();
        for i in 0..rng.range(3, 12) {
            let o = if i % 2 == 0 { who[a] } else { who[z] };
            cells[r.rem_euclid(h as i64) as usize][c.rem_euclid(w as i64) as usize] = ant(o, false);
            r += dr;
            c += dc;
        }
    }
    for _ in 0..rng.range(0, 10) {
        let (r, c) = (size(rng, 0, h - 1), size(rng, 0, w - 1));
        cells[r][c] = ant(*rng.pick(&who), false);
    }
    Drawn { cells, r2, mode: "closest", players: None }
}

/// What the shrinker makes smaller, compared in this order: cells, ants,
/// the squared radius in force, header lines, special cells (water, food,
/// hills, ants on hills), then the players line and the highest owner.
fn measure(b: &Battle) -> (usize, usize, u32, usize, usize, u32, u32) {
    let cells = b.cells.iter().flatten();
    let ants = cells.clone().filter(|c| owner(**c).is_some()).count();
    let special = cells.clone().filter(|c| !matches!(c, b'.' | b'a'..=b'j')).count();
    let top = cells.filter_map(|c| player(*c)).max().unwrap_or(0);
    let headers = [b.players.is_some(), b.r2.is_some(), b.mode.is_some()];
    (
        b.rows() * b.cols(),
        ants,
        b.r2.unwrap_or(5),
        headers.iter().filter(|h| **h).count(),
        special,
        b.players.unwrap_or(0),
        top,
    )
}

/// Maps above this many cells get only coarse candidates (each candidate
/// is a whole copy of the map).
const FINE_CELLS: usize = 10_000;

fn crop(b: &Battle, rows: std::ops::Range<usize>, cols: std::ops::Range<usize>) -> Battle {
    let mut s = b.clone();
    s.cells = b.cells[rows].iter().map(|r| r[cols.clone()].to_vec()).collect();
    s
}

/// The shrinker's steps, most promising first: a smaller window, fewer
/// ants, a smaller radius, fewer header lines, plain cells, fewer
/// players. Each candidate is smaller by [`measure`], so repeated
/// shrinking ends.
impl Shrinkable for Battle {
    const STEPS: &'static [fn(&Battle) -> Vec<Battle>] =
        &[windows, fewer_ants, smaller_radius, fewer_headers, plain_cells, fewer_players];

    fn parse(text: &str) -> Option<Battle> {
        Battle::parse(text)
    }

    fn render(&self) -> String {
        Battle::render(self)
    }
}

/// Whether `b` is small enough for fine candidates (see [`FINE_CELLS`]).
fn fine(b: &Battle) -> bool {
    b.rows() * b.cols() <= FINE_CELLS
}

/// A smaller window: halves, then one row or column at either edge, then
/// (small maps) any single row or column.
fn windows(b: &Battle) -> Vec<Battle> {
    let mut out = Vec::new();
    let (h, w) = (b.rows(), b.cols());
    if h > 1 {
        out.push(crop(b, 0..h / 2, 0..w));
        out.push(crop(b, h / 2..h, 0..w));
    }
    if w > 1 {
        out.push(crop(b, 0..h, 0..w / 2));
        out.push(crop(b, 0..h, w / 2..w));
    }
    if h > 2 {
        out.push(crop(b, 1..h, 0..w));
        out.push(crop(b, 0..h - 1, 0..w));
    }
    if w > 2 {
        out.push(crop(b, 0..h, 1..w));
        out.push(crop(b, 0..h, 0..w - 1));
    }
    if fine(b) {
        for i in 1..h.saturating_sub(1) {
            let mut s = b.clone();
            s.cells.remove(i);
            out.push(s);
        }
        for j in 1..w.saturating_sub(1) {
            let mut s = b.clone();
            for row in &mut s.cells {
                row.remove(j);
            }
            out.push(s);
        }
    }
    out
}

/// Fewer ants: all of one owner, then chunks of the ants in reading order
/// (halves, quarters, ..., single ants on small maps). An ant on its hill
/// leaves the hill.
fn fewer_ants(b: &Battle) -> Vec<Battle> {
    let mut out = Vec::new();
    let (h, w) = (b.rows(), b.cols());
    let ants: Vec<(usize, usize, u32)> = (0..h)
        .flat_map(|r| (0..w).map(move |c| (r, c)))
        .filter_map(|(r, c)| Some((r, c, owner(b.cells[r][c])?)))
        .collect();
    let without = |gone: &mut dyn Iterator<Item = &(usize, usize, u32)>| {
        let mut s = b.clone();
        for &(r, c, _) in gone {
            let cell = &mut s.cells[r][c];
            *cell = if cell.is_ascii_uppercase() { b'0' + (*cell - b'A') } else { b'.' };
        }
        s
    };
    let mut present: Vec<u32> = ants.iter().map(|&(_, _, o)| o).collect();
    present.sort_unstable();
    present.dedup();
    if present.len() > 1 {
        for &o in &present {
            out.push(without(&mut ants.iter().filter(|a| a.2 == o)));
        }
    }
    // At most about 128 such candidates, single ants once there are few;
    // on a big map only halves and quarters (the window shrinks first).
    let smallest = (ants.len() / if fine(b) { 64 } else { 4 }).max(1);
    let mut chunk = ants.len() / 2;
    while chunk >= smallest {
        for part in ants.chunks(chunk) {
            out.push(without(&mut part.iter()));
        }
        chunk /= 2;
    }
    out
}

/// A smaller squared radius: half, then one less.
fn smaller_radius(b: &Battle) -> Vec<Battle> {
    let r2 = b.r2.unwrap_or(5);
    let mut radii = vec![r2 / 2, r2.saturating_sub(1)];
    radii.dedup();
    let smaller = radii.into_iter().filter(|&r| r < r2);
    smaller.map(|r| Battle { r2: Some(r), ..b.clone() }).collect()
}

/// Fewer header lines: those that only repeat a default or a bound.
fn fewer_headers(b: &Battle) -> Vec<Battle> {
    let mut out = Vec::new();
    if b.r2 == Some(5) {
        out.push(Battle { r2: None, ..b.clone() });
    }
    if b.mode == Some("focus") {
        out.push(Battle { mode: None, ..b.clone() });
    }
    if b.players.is_some() {
        out.push(Battle { players: None, ..b.clone() });
    }
    out
}

/// Plain cells: water, food and hills become land, ants leave hills.
fn plain_cells(b: &Battle) -> Vec<Battle> {
    if measure(b).4 == 0 {
        return Vec::new();
    }
    let mut s = b.clone();
    for c in s.cells.iter_mut().flatten() {
        *c = match *c {
            b'A'..=b'J' => c.to_ascii_lowercase(),
            b'a'..=b'j' => *c,
            _ => b'.',
        };
    }
    vec![s]
}

/// Fewer players: owners renumbered 0.. in order (only identity matters
/// in battle), `players` lowered to what is needed.
fn fewer_players(b: &Battle) -> Vec<Battle> {
    let mut named: Vec<u32> = b.cells.iter().flatten().filter_map(|c| player(*c)).collect();
    named.sort_unstable();
    named.dedup();
    let mut s = b.clone();
    for c in s.cells.iter_mut().flatten() {
        if let Some(q) = player(*c).and_then(|p| named.iter().position(|x| *x == p)) {
            let q = q as u8;
            *c = match *c {
                b'0'..=b'9' => b'0' + q,
                b'A'..=b'J' => b'A' + q,
                _ => b'a' + q,
            };
        }
    }
    if let Some(p) = s.players.as_mut() {
        *p = (named.len() as u32).max(2);
    }
    if measure(&s) < measure(b) {
        vec![s]
    } else {
        Vec::new()
    }
}

impl Problem for AntsBattle {
    fn name(&self) -> &'static str {
        "ants_battle"
    }

    /// The package's: a 5000 x 5000 map is 25 MB of output.
    fn output_limit_mb(&self) -> u64 {
        64
    }

    fn profiles(&self) -> &'static [Profile] {
        PROFILES
    }

    fn shrink(&self, input: &str) -> Vec<String> {
        super::shrink::<Battle>(input)
    }

    /// `kit show`: the battle map ([`crate::pages::ants`]).
    fn page(&self, input: &[u8], solver: &Path, title: &str, page: &mut dyn Write) -> Result<()> {
        crate::pages::ants::page(input, solver, title, page)
    }
}

#[cfg(test)]
mod tests {
    use super::super::strict_lines;
    use super::*;

    /// The strict format: header lines in the normal order, each
    /// `key value`, then R lines `m ROW` of C cells.
    fn check_strict(text: &str) -> Battle {
        let lines = strict_lines(text);
        let mut i = 0;
        let value = |key: &str, i: &mut usize| -> Option<String> {
            let v = lines[*i].strip_prefix(key)?.strip_prefix(' ')?.to_string();
            *i += 1;
            Some(v)
        };
        let rows: usize = value("rows", &mut i).unwrap().parse().unwrap();
        let cols: usize = value("cols", &mut i).unwrap().parse().unwrap();
        let players = value("players", &mut i).map(|p| p.parse::<u32>().unwrap());
        let r2 = value("attackradius2", &mut i).map(|p| p.parse::<u32>().unwrap());
        if let Some(m) = value("attack", &mut i) {
            assert!(MODES.contains(&m.as_str()), "{m}");
        }
        assert!(players.map_or(true, |p| (2..=10).contains(&p)));
        assert!(r2.map_or(true, |r| r <= 100));
        assert_eq!(lines.len(), i + rows, "row count");
        for line in &lines[i..] {
            let row = line.strip_prefix("m ").expect("m line");
            assert_eq!(row.len(), cols);
            assert!(!row.contains(' '));
        }
        let b = Battle::parse(text).expect("valid battle");
        assert_eq!(b.render(), text);
        b
    }

    #[test]
    fn same_seed_same_bytes_and_strict_format() {
        for p in PROFILES.iter().filter(|p| !p.name.starts_with("big")) {
            for seed in 0..30 {
                let a = AntsBattle.generate(p.name, &mut Rng::new(seed)).unwrap();
                assert_eq!(a, AntsBattle.generate(p.name, &mut Rng::new(seed)).unwrap());
                check_strict(&a);
            }
        }
    }

    #[test]
    fn the_benchmark_map_has_its_shape() {
        // Line by line: the map is 4 MB, and other tests run alongside.
        let text = AntsBattle.generate("big", &mut Rng::new(1)).unwrap();
        assert!(text == AntsBattle.generate("big", &mut Rng::new(1)).unwrap());
        let head = "rows 2000\ncols 2000\nplayers 4\nattackradius2 5\nattack focus\n";
        assert!(text.starts_with(head) && text.ends_with('\n'));
        let rows: Vec<&str> = text[head.len()..text.len() - 1].split('\n').collect();
        assert_eq!(rows.len(), 2000);
        let mut ants = 0;
        for row in rows {
            let cells = row.strip_prefix("m ").expect("m line").as_bytes();
            assert_eq!(cells.len(), 2000);
            assert!(cells.iter().all(|c| b"abcd%*.".contains(c)));
            ants += cells.iter().filter(|c| c.is_ascii_lowercase()).count();
        }
        let share = ants as f64 / 4e6;
        assert!((0.39..0.41).contains(&share), "{share}");
    }

    #[test]
    fn profiles_cover_every_mode_and_their_corners() {
        let mut modes = Vec::new();
        for p in PROFILES.iter().filter(|p| !p.name.starts_with("big")) {
            for seed in 0..30 {
                let text = AntsBattle.generate(p.name, &mut Rng::new(seed)).unwrap();
                let b = Battle::parse(&text).expect("valid");
                modes.push(b.mode.unwrap_or("focus"));
                match p.name {
                    "tiny_torus" => assert!(b.rows() <= 6 && b.cols() <= 6 && b.r2 >= Some(8)),
                    "ten_players" => assert_eq!(b.players, Some(10)),
                    "damage_near_1" => assert_eq!(b.mode, Some("damage")),
                    "closest_chains" => assert_eq!(b.mode, Some("closest")),
                    _ => {}
                }
            }
        }
        for m in MODES {
            assert!(modes.contains(&m), "{m}");
        }
    }

    #[test]
    fn shrink_candidates_are_valid_and_smaller() {
        for p in PROFILES.iter().filter(|p| !p.name.starts_with("big")) {
            for seed in 0..5 {
                let text = AntsBattle.generate(p.name, &mut Rng::new(seed)).unwrap();
                let b = Battle::parse(&text).unwrap();
                for c in AntsBattle.shrink(&text) {
                    let s = check_strict(&c);
                    assert!(measure(&s) < measure(&b), "{c}");
                }
            }
        }
    }

    #[test]
    fn shrinking_reaches_a_one_cell_map() {
        let mut text = AntsBattle.generate("hills", &mut Rng::new(2)).unwrap();
        let mut steps = 0;
        while let Some(next) = AntsBattle.shrink(&text).into_iter().next() {
            text = next;
            steps += 1;
            assert!(steps < 10_000);
        }
        let b = Battle::parse(&text).unwrap();
        assert_eq!((b.rows(), b.cols()), (1, 1));
    }
}
