//! Ants' battle rules: the catalogue (every rule of the statement, each
//! attack mode's among them) and where a battle exercises each, from the
//! input and `ants_battle --explain` (the weakness picture and each dead
//! ant's reason), read with `crate::pages::ants`.

use super::{Firing, Rule};
use crate::pages::ants::{self, is_ant};

/// A rule of the catalogue.
const fn rule(id: &'static str, statement: &'static str, english: &'static str) -> Rule {
    Rule { id, statement, english }
}

/// Every rule of the statement, in its order: the input's defaults, who is
/// in range, the four attack modes, the output.
pub const RULES: &[Rule] = &[
    rule(
        "default-radius",
        "`attackradius2 N` | squared attack radius, N >= 0, default 5",
        "Without an attackradius2 line the squared attack radius is 5.",
    ),
    rule(
        "default-mode",
        "`attack MODE` | `focus` (default), `closest`, `support`, `damage`",
        "Without an attack line the mode is focus.",
    ),
    rule(
        "torus",
        "The map wraps around in both directions (a torus).",
        "An enemy across an edge of the map is in range as if the map repeated.",
    ),
    rule(
        "attack-radius",
        "Let D be the offsets (dr, dc) with 0 < dr^2 + dc^2 <= N.",
        "An enemy at squared distance exactly N is in range (<= N, not < N).",
    ),
    rule(
        "enemy-multiplicity",
        "On a map smaller than the attack disk (R or C <= 2*floor(sqrt(N))) two offsets can land on \
         one cell: that enemy is then listed, and counted, more than once.",
        "On a map narrower than the attack disk an enemy reached by two offsets counts twice.",
    ),
    rule(
        "same-owner",
        "Ants of the same owner never count, in any mode.",
        "A friend in range counts for nothing (nor does the ant itself, reached by wrapping).",
    ),
    rule(
        "no-fight",
        "N = 0, or a 1x1 map: nobody fights.",
        "With N = 0 or a 1x1 map nobody fights.",
    ),
    rule(
        "weakness",
        "Let w(a), the ant's weakness, be the length of its enemy list.",
        "An ant's weakness is the number of enemies in its range, counted with multiplicity.",
    ),
    rule(
        "simultaneous",
        "All deaths are decided on the map before the battle and applied together.",
        "Deaths are decided on the map before the battle: a dying ant still kills.",
    ),
    rule(
        "focus",
        "`focus` (the contest rule): an ant with w(a) = 0 survives; otherwise it dies if some enemy \
         e in its list has w(e) <= w(a).",
        "focus: a fighting ant dies if an enemy in its range has no more enemies than it has.",
    ),
    rule(
        "focus-tie",
        "otherwise it dies if some enemy e in its list has w(e) <= w(a).",
        "focus: an enemy of equal weakness kills too (<=, not <): both die.",
    ),
    rule(
        "support",
        "`support` (what the engine really does): an ant dies if its enemy list is not empty.",
        "support: an ant dies if any enemy is in range; friends do not help.",
    ),
    rule(
        "damage",
        "`damage`: every ant x with w(x) > 0 deals 1/w(x) to each entry of its enemy list (an enemy \
         listed k times receives k/w(x)).",
        "damage: each fighting ant splits 1 damage among the entries of its enemy list.",
    ),
    rule(
        "damage-exact",
        "An ant dies if the damage it receives is >= 1, computed exactly (no floating point: totals \
         of exactly 1 are common).",
        "damage: an ant receiving exactly 1 dies; sums are exact fractions.",
    ),
    rule(
        "closest",
        "`closest`: for d = 1, 2, ..., N - 1 in order (distance exactly N never fights), take the ants \
         still alive and join every two enemies whose squared toroidal distance is exactly d",
        "closest: distance by distance from 1 to N - 1, enemies at that squared distance fight.",
    ),
    rule(
        "closest-radius-excluded",
        "(distance exactly N never fights)",
        "closest: two enemies at squared distance exactly N never fight.",
    ),
    rule(
        "closest-groups",
        "Every connected group of two or more ants dies at once, before the next d. A group may hold \
         several ants of one owner, linked through enemies.",
        "closest: each connected group at a distance dies at once, before the next distance; a \
         group may hold several ants of one owner.",
    ),
    rule(
        "dead-cell",
        "A dead ant's cell becomes `.`;",
        "A dead ant's cell becomes land.",
    ),
    rule(
        "dead-on-hill",
        "a dead ant on its hill (`A`..`J`) becomes that hill's digit.",
        "A dead ant on its own hill leaves the hill's digit.",
    ),
    rule(
        "others-unchanged",
        "Nothing else changes: water, food and hills take no part in battle.",
        "Water, food and hills are printed as they were.",
    ),
    rule(
        "header-normalised",
        "The header, normalised: `rows`, `cols`, then `players`, `attackradius2`, `attack` each only \
         if the input had it, in that order;",
        "The output header is rows, cols, then players, attackradius2, attack if given, in that \
         order, whatever the input's order or other lines.",
    ),
];

/// The owner of an ant's cell (`a`..`j`, `A`..`J`).
fn owner(cell: u8) -> u8 {
    cell.to_ascii_lowercase() - b'a'
}

/// Where the battle `input` exercises each rule, from `explain` (`ants_battle
/// --explain`'s stdout): input-wide rules at line 0, an ant's range rules
/// at its row's `w` line, a death's at its `dead` line.
///
/// Linear in the ants times the offsets of the attack disk (the solver's
/// own work).
///
/// # Errors
/// An input or explain output that cannot be read, as a message.
pub fn firings(input: &str, explain: &str) -> Result<Vec<Firing>, String> {
    let battle = ants::battle(input, explain)?;
    let (rows, cols, n2) = (battle.rows, battle.cols, battle.radius2 as i64);
    let mut fired = Vec::new();
    let mut fire = |line: usize, rule: &'static str| fired.push(Firing { line, rule });
    let keys: Vec<&str> = input
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("m "))
        .collect();
    let has = |key: &str| keys.iter().any(|l| l.split(' ').next() == Some(key));
    if !has("attackradius2") {
        fire(0, "default-radius");
    }
    if !has("attack") {
        fire(0, "default-mode");
    }
    let header: Vec<&str> = explain.lines().take_while(|l| !l.starts_with("m ")).collect();
    if header != keys {
        fire(1, "header-normalised");
    }
    if n2 == 0 || rows * cols == 1 {
        fire(0, "no-fight");
    }
    if battle.map.iter().any(|&c| matches!(c, b'%' | b'*' | b'0'..=b'9' | b'A'..=b'J')) {
        fire(0, "others-unchanged");
    }
    // The explain lines: each row's `w` line, and the `dead` lines.
    let mut w_line = Vec::with_capacity(rows);
    let mut dead = Vec::new();
    for (k, line) in explain.lines().enumerate() {
        if line.starts_with("w ") {
            w_line.push(k + 1);
        } else if let Some(d) = line.strip_prefix("dead ") {
            dead.push((k + 1, d.split(' ').collect::<Vec<&str>>()));
        }
    }
    if w_line.len() != rows {
        return Err(format!("{} `w` lines for {rows} rows", w_line.len()));
    }
    // Who is in range of whom: the disk's offsets from every ant.
    let r = (0..).take_while(|d: &i64| d * d <= n2).last().unwrap_or(0);
    let offsets: Vec<(i64, i64)> = (-r..=r)
        .flat_map(|dr| (-r..=r).map(move |dc| (dr, dc)))
        .filter(|&(dr, dc)| (1..=n2).contains(&(dr * dr + dc * dc)))
        .collect();
    let (rows_i, cols_i) = (rows as i64, cols as i64);
    let torus = |d: i64, size: i64| {
        let d = d.rem_euclid(size);
        d.min(size - d)
    };
    let mode = battle.mode.as_str();
    for cell in 0..battle.map.len() {
        let me = battle.map[cell];
        if !is_ant(me) {
            continue;
        }
        let (row, col) = ((cell / cols) as i64, (cell % cols) as i64);
        let line = w_line[cell / cols];
        // Only a map narrower than the disk can list an enemy twice.
        let narrow = rows_i <= 2 * r || cols_i <= 2 * r;
        let mut seen: Vec<usize> = Vec::new();
        let mut found: Vec<&'static str> = Vec::new();
        for &(dr, dc) in &offsets {
            let (r2, c2) = (row + dr, col + dc);
            let other = (r2.rem_euclid(rows_i) * cols_i + c2.rem_euclid(cols_i)) as usize;
            let them = battle.map[other];
            if !is_ant(them) {
                continue;
            }
            if owner(them) == owner(me) {
                found.push("same-owner");
                continue;
            }
            found.push("weakness");
            found.push(mode_rule(mode));
            if !(0..rows_i).contains(&r2) || !(0..cols_i).contains(&c2) {
                found.push("torus");
            }
            if dr * dr + dc * dc == n2 {
                found.push("attack-radius");
            }
            let (tr, tc) = (torus(r2 - row, rows_i), torus(c2 - col, cols_i));
            if mode == "closest" && tr * tr + tc * tc == n2 {
                found.push("closest-radius-excluded");
            }
            if narrow {
                if seen.contains(&other) {
                    found.push("enemy-multiplicity");
                } else {
                    seen.push(other);
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        for rule in found {
            fire(line, rule);
        }
    }
    // The deaths.
    let dead_cells: Vec<(usize, usize)> = dead
        .iter()
        .filter_map(|(_, d)| Some((d.first()?.parse().ok()?, d.get(1)?.parse().ok()?)))
        .collect();
    let mut per_distance: std::collections::HashMap<&str, usize> = Default::default();
    for (_, d) in &dead {
        if d.get(3) == Some(&"closest") {
            *per_distance.entry(d.get(4).copied().unwrap_or("")).or_default() += 1;
        }
    }
    for (line, d) in &dead {
        let line = *line;
        let at = |k: usize| d.get(k).copied().unwrap_or("");
        let (r, c): (usize, usize) = (at(0).parse().unwrap_or(0), at(1).parse().unwrap_or(0));
        let cell = battle.map.get(r * cols + c).copied().unwrap_or(b'.');
        fire(line, if cell.is_ascii_uppercase() { "dead-on-hill" } else { "dead-cell" });
        match at(3) {
            "focus" => {
                fire(line, "focus");
                // `focus by R C w=W enemy_w=E`
                let w = at(7).strip_prefix("w=").unwrap_or("");
                if at(8).strip_prefix("enemy_w=") == Some(w) {
                    fire(line, "focus-tie");
                }
                let by = (at(5).parse().unwrap_or(usize::MAX), at(6).parse().unwrap_or(usize::MAX));
                if dead_cells.contains(&by) {
                    fire(line, "simultaneous");
                }
            }
            "damage" => {
                fire(line, "damage");
                if at(4) == "1/1" {
                    fire(line, "damage-exact");
                }
                if dead.len() > 1 {
                    fire(line, "simultaneous");
                }
            }
            "closest" => {
                fire(line, "closest");
                if per_distance.get(at(4)).is_some_and(|&k| k > 2) {
                    fire(line, "closest-groups");
                }
            }
            _ => {
                fire(line, "support");
                if dead.len() > 1 {
                    fire(line, "simultaneous");
                }
            }
        }
    }
    Ok(fired)
}

/// The rule of an attack mode.
fn mode_rule(mode: &str) -> &'static str {
    match mode {
        "closest" => "closest",
        "support" => "support",
        "damage" => "damage",
        _ => "focus",
    }
}
