//! A planted time_limit_exceeded submission for the Ants battle: correct,
//! but it looks at every pair of ants. It finds each ant's enemies by
//! checking all other ants (O(A^2) pairs for A ants), where the intended
//! solution scans only the attack disk around each cell. On small maps it
//! answers like the accepted solution; a 200x200 map with 20,000 ants (4 *
//! 10^8 pairs) already takes seconds, and the 2000x2000 map with 40% ants
//! (1.6 million ants, over 10^12 pairs) hours.
//!
//! Written for the package (std only), from the rules of the statement.

use std::collections::HashMap;
use std::io::{self, Read, Write};

/// A natural number in base 2^32, least significant digit first.
#[derive(Clone, PartialEq, Eq)]
struct Nat(Vec<u32>);

impl Nat {
    fn of(v: u64) -> Nat {
        Nat(vec![v as u32, (v >> 32) as u32]).trimmed()
    }

    fn trimmed(mut self) -> Nat {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        self
    }

    fn times(&self, m: u64) -> Nat {
        let mut out = Vec::with_capacity(self.0.len() + 2);
        let mut carry = 0u128;
        for &d in &self.0 {
            let t = u128::from(d) * u128::from(m) + carry;
            out.push(t as u32);
            carry = t >> 32;
        }
        while carry > 0 {
            out.push(carry as u32);
            carry >>= 32;
        }
        Nat(out).trimmed()
    }

    fn plus(&self, o: &Nat) -> Nat {
        let mut out = Vec::with_capacity(self.0.len().max(o.0.len()) + 1);
        let mut carry = 0u64;
        for i in 0..self.0.len().max(o.0.len()) {
            let t = u64::from(*self.0.get(i).unwrap_or(&0))
                + u64::from(*o.0.get(i).unwrap_or(&0))
                + carry;
            out.push(t as u32);
            carry = t >> 32;
        }
        out.push(carry as u32);
        Nat(out).trimmed()
    }

    /// The quotient by `d`, which must divide it.
    fn divided(&self, d: u64) -> Nat {
        let mut q = vec![0u32; self.0.len()];
        let mut rem = 0u128;
        for i in (0..self.0.len()).rev() {
            let cur = (rem << 32) | u128::from(self.0[i]);
            q[i] = (cur / u128::from(d)) as u32;
            rem = cur % u128::from(d);
        }
        Nat(q).trimmed()
    }

    fn at_least(&self, o: &Nat) -> bool {
        if self.0.len() != o.0.len() {
            return self.0.len() > o.0.len();
        }
        self.0.iter().rev().cmp(o.0.iter().rev()) != std::cmp::Ordering::Less
    }
}

/// Is the sum of count / weakness over `terms` at least 1, exactly? Over
/// the product of the weaknesses as the common denominator.
fn at_least_one(terms: &HashMap<u64, u64>) -> bool {
    let den = terms.keys().fold(Nat::of(1), |acc, &w| acc.times(w));
    let mut num = Nat::of(0);
    for (&w, &count) in terms {
        num = num.plus(&den.divided(w).times(count));
    }
    num.at_least(&den)
}

struct Ant {
    row: usize,
    col: usize,
    owner: u8,
}

fn owner_of(b: u8) -> Option<u8> {
    match b {
        b'a'..=b'j' => Some(b - b'a'),
        b'A'..=b'J' => Some(b - b'A'),
        _ => None,
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).expect("readable input");
    let (mut rows, mut cols, mut radius2, mut mode) = (0usize, 0usize, 5i64, "focus".to_string());
    let mut header = String::new();
    let mut cells: Vec<Vec<u8>> = Vec::new();
    for line in input.lines() {
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "m" => cells.push(value.as_bytes().to_vec()),
            "rows" => rows = value.parse().expect("rows"),
            "cols" => cols = value.parse().expect("cols"),
            "attackradius2" => radius2 = value.parse().expect("attackradius2"),
            "attack" => mode = value.to_string(),
            _ => {}
        }
        if key != "m" {
            header.push_str(&format!("{key} {value}\n"));
        }
    }
    assert_eq!(cells.len(), rows);
    // How many offsets of the attack disk land on each (dr mod R, dc mod C).
    let mut landing: HashMap<(usize, usize), u64> = HashMap::new();
    let h = (radius2 as f64).sqrt() as i64 + 1;
    for dr in -h..=h {
        for dc in -h..=h {
            let d = dr * dr + dc * dc;
            if d > 0 && d <= radius2 {
                let key = (dr.rem_euclid(rows as i64) as usize, dc.rem_euclid(cols as i64) as usize);
                *landing.entry(key).or_insert(0) += 1;
            }
        }
    }
    let mut ants = Vec::new();
    for (row, line) in cells.iter().enumerate() {
        for (col, &b) in line.iter().enumerate() {
            if let Some(owner) = owner_of(b) {
                ants.push(Ant { row, col, owner });
            }
        }
    }
    // Every pair of ants: the enemies in range, with multiplicity, and
    // their squared toroidal distance.
    let axis = |p: usize, q: usize, size: usize| {
        let d = p.abs_diff(q);
        d.min(size - d)
    };
    let mut enemies: Vec<Vec<(usize, u64, usize)>> = vec![Vec::new(); ants.len()];
    for (i, a) in ants.iter().enumerate() {
        for (j, b) in ants.iter().enumerate() {
            if a.owner == b.owner {
                continue;
            }
            let key = ((b.row + rows - a.row) % rows, (b.col + cols - a.col) % cols);
            if let Some(&count) = landing.get(&key) {
                let (dr, dc) = (axis(a.row, b.row, rows), axis(a.col, b.col, cols));
                enemies[i].push((j, count, dr * dr + dc * dc));
            }
        }
    }
    let weakness: Vec<u64> = enemies.iter().map(|l| l.iter().map(|e| e.1).sum()).collect();
    let mut dead = vec![false; ants.len()];
    match mode.as_str() {
        "focus" => {
            for i in 0..ants.len() {
                dead[i] = enemies[i].iter().any(|e| weakness[e.0] <= weakness[i]);
            }
        }
        "support" => {
            for i in 0..ants.len() {
                dead[i] = !enemies[i].is_empty();
            }
        }
        "damage" => {
            for i in 0..ants.len() {
                let mut terms: HashMap<u64, u64> = HashMap::new();
                for &(j, count, _) in &enemies[i] {
                    *terms.entry(weakness[j]).or_insert(0) += count;
                }
                dead[i] = !terms.is_empty() && at_least_one(&terms);
            }
        }
        _ => {
            // closest: at each d below N, the living ants with a living
            // enemy at distance exactly d die together.
            for d in 1..radius2.max(1) as usize {
                let dying: Vec<usize> = (0..ants.len())
                    .filter(|&i| !dead[i])
                    .filter(|&i| enemies[i].iter().any(|e| e.2 == d && !dead[e.0]))
                    .collect();
                for i in dying {
                    dead[i] = true;
                }
            }
        }
    }
    for (a, _) in ants.iter().zip(&dead).filter(|(_, &d)| d) {
        let b = &mut cells[a.row][a.col];
        *b = if b.is_ascii_uppercase() { *b - b'A' + b'0' } else { b'.' };
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    out.write_all(header.as_bytes()).expect("writable output");
    for line in &cells {
        out.write_all(b"m ").and_then(|()| out.write_all(line)).expect("writable output");
        out.write_all(b"\n").expect("writable output");
    }
}
