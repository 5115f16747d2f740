//! 集's rules: one catalogue for the referee and the solver (the game's
//! rules, then the solver's: the cap, the round limit and p), and where a
//! game exercises each: a refereed record from `ji_referee --trace`, a
//! solved game from its input (the solver's own output proves values, it
//! does not retell rounds) and the values it prints.

use super::{Firing, Rule};
use crate::pages::ji::{format, read_variant};
use std::collections::HashMap;

/// A rule of the catalogue.
const fn rule(id: &'static str, statement: &'static str, english: &'static str) -> Rule {
    Rule { id, statement, english }
}

/// Every rule of the statement (docs/ji.md quotes it in full).
pub const RULES: &[Rule] = &[
    rule(
        "simultaneous-moves",
        "Two players, A and B, move at the same time each round.",
        "Both sides choose their skills at once, each round.",
    ),
    rule(
        "count-start",
        "Each holds a count of 集 (starting at 0, known to both).",
        "Both counts of 集 start at 0.",
    ),
    rule(
        "delta",
        "A skill changes its user's count by `delta`",
        "A skill adds its delta (negative: it spends) to its user's count.",
    ),
    rule(
        "cost",
        "and needs at least `req` 集.",
        "A skill needs a count of at least its req.",
    ),
    rule(
        "cost-equal",
        "A count equal to req is legal.",
        "A count exactly equal to req is enough.",
    ),
    rule(
        "unlimited-ji",
        "`req > -delta` is the 无限集 rule.",
        "A skill may need more 集 than it spends (req > -delta).",
    ),
    rule(
        "beats",
        "If one side's skill beats the other's, that side wins and the game ends;",
        "A skill that beats the other side's wins the game at once.",
    ),
    rule(
        "beats-both-ways",
        "\"Beats\" must be irreflexive and antisymmetric; it need not be transitive. Look it up in \
         both directions.",
        "Beats is looked up in both directions (B's skill's own list too) and is not transitive.",
    ),
    rule(
        "play-goes-on",
        "otherwise both deltas apply and play goes on.",
        "A round nobody wins applies both deltas, and the next round follows.",
    ),
    rule(
        "deltas-only-on-continue",
        "Deltas apply only when the round continues.",
        "The round that decides applies no delta.",
    ),
    rule(
        "illegal-first",
        "Legality of both moves is checked before \"beats\": an illegal move that would have won is \
         still `ILLEGAL`.",
        "A skill played without enough 集 loses (ILLEGAL) even if it would have won.",
    ),
    rule(
        "big-counts",
        "Counts can reach about 1e13 and req 1e18: 64-bit integers.",
        "Counts and costs need 64-bit integers.",
    ),
    rule(
        "after-verdict",
        "The rounds after the verdict are still in the input (possibly illegal ones): read and \
         ignore them.",
        "The record's rounds after the verdict are read and ignored.",
    ),
    rule(
        "no-free-skill",
        "A variant with no req-0 skill gives `ILLEGAL AB 1`.",
        "Without a req-0 skill nobody can move: ILLEGAL AB in round 1 (a draw for the solver).",
    ),
    rule(
        "lasting",
        "When it meets a defence, the round goes on, nobody wins, and the defender may never defend \
         again.",
        "A lasting effect takes skills from the other side for the rest of the game; playing one \
         then is illegal.",
    ),
    rule(
        "lasting-state",
        "A state is then the two counts plus what each side has lost.",
        "With lasting effects a state is the two counts and the skills each side has lost.",
    ),
    rule(
        "cap",
        "C = the largest req. After every round each count becomes min(count + delta, C).",
        "The solver's counts are capped at C, the largest req: gains past it are lost.",
    ),
    rule(
        "cap-zero",
        "Gains can be large (10^6) and C can be 0.",
        "C may be 0: every count stays 0.",
    ),
    rule(
        "round-limit",
        "With R > 0 the answer is V_R: so R = 1 is the one-shot game, and p = 100 gives the same \
         values as R = 1.",
        "With R > 0 the value is that of the R-round game (R = 1: one shot).",
    ),
    rule(
        "draw-chance",
        "any other pair pays (1 - p/100) * V_{k-1}(next state).",
        "A round nobody wins is, with chance p%, the end of the game (a draw).",
    ),
    rule(
        "discounted-limit",
        "With R = 0 and p > 0 the answer is the limit of V_k (a contraction: the discounted game's \
         value).",
        "R = 0 with p > 0: the value of the endless game discounted by p.",
    ),
    rule(
        "unlimited-game",
        "R = 0 with p = 0 is the unlimited game: rounds go on until one side wins, and a game that \
         never ends pays 0.",
        "R = 0 with p = 0: play until somebody wins; a game that never ends is worth 0.",
    ),
    rule(
        "stall",
        "where one side can stall forever (play a skill nothing beats, in a state that does not \
         change), the k-round game lets it wait for the last round and take that round's one-shot \
         value, but the unlimited game has no last round.",
        "In the unlimited game a side that can stall forever has no last round to wait for: the \
         value is not the limit of the R-round values.",
    ),
    rule(
        "p-decimal",
        "`p` is a decimal: `0.0`, `2.50`, `100.000` all occur.",
        "p is read as a decimal (0.0 with R = 0 is the unlimited game).",
    ),
    rule(
        "negative-zero",
        "Print 9 digits after the point; `-0.000000000` is printed `0.000000000`.",
        "Values have 9 decimals and no negative zero.",
    ),
];

/// The skills of a variant as the trace names them: input position by name.
fn ids<'a>(v: &format::Variant<'a>) -> HashMap<&'a [u8], usize> {
    v.skills.iter().enumerate().map(|(k, s)| (s.name, k)).collect()
}

/// Where the refereed game `input` exercises each rule, from `trace`
/// (`ji_referee --trace`'s stderr): each `round` line's rules at its line.
///
/// # Errors
/// An input or trace that cannot be read, as a message.
pub fn referee_firings(input: &[u8], trace: &str) -> Result<Vec<Firing>, String> {
    let (v, mut lx) = read_variant(input)?;
    let id = ids(&v);
    let mut fired = Vec::new();
    let mut fire = |line: usize, rule: &'static str| fired.push(Firing { line, rule });
    let recorded: u64 =
        lx.next().and_then(|t| std::str::from_utf8(t.text).ok()?.parse().ok()).unwrap_or(0);
    if !v.skills.iter().any(|s| s.req == 0) {
        fire(0, "no-free-skill");
    }
    let mut last = (0, 0);
    for (k, text) in trace.lines().enumerate() {
        let line = k + 1;
        let w: Vec<&str> = text.split(' ').collect();
        if w[0] == "taken" {
            fire(line, "lasting");
            continue;
        }
        if w[0] != "round" || w.len() < 7 {
            continue;
        }
        let t: u64 = w[1].parse().map_err(|_| format!("bad trace line `{text}`"))?;
        last = (t, line);
        fire(line, "simultaneous-moves");
        if t == 1 {
            fire(line, "count-start");
        }
        let counts: Vec<i64> = w[4..6].iter().filter_map(|c| c.parse().ok()).collect();
        let skill = |name: &str| id.get(name.as_bytes()).map(|&x| (x, &v.skills[x]));
        let moves = [skill(w[2]), skill(w[3])];
        let legal = |side: usize| match (moves[side], counts.get(side)) {
            (Some((_, s)), Some(&c)) => c >= s.req,
            _ => false,
        };
        for (played, &c) in moves.iter().zip(&counts) {
            if let Some((_, s)) = played {
                if s.req > 0 {
                    fire(line, "cost");
                }
                if s.req > 0 && c == s.req {
                    fire(line, "cost-equal");
                }
                if s.req > 0 && s.req > -s.delta {
                    fire(line, "unlimited-ji");
                }
                if c.unsigned_abs() > i32::MAX as u64 || s.req > i64::from(i32::MAX) {
                    fire(line, "big-counts");
                }
            }
        }
        let beats = |a: usize, b: usize| match (moves[a], moves[b]) {
            (Some((x, _)), Some((y, _))) => v.beats(x as u32, y as u32),
            _ => false,
        };
        match w[6] {
            "next" => {
                fire(line, "delta");
                fire(line, "play-goes-on");
            }
            "A" | "B" => {
                fire(line, "beats");
                fire(line, "deltas-only-on-continue");
                if w[6] == "B" {
                    fire(line, "beats-both-ways");
                }
            }
            _ => {
                // ILLEGAL: the side that would have won, had legality not come first.
                if (beats(0, 1) && !legal(0)) || (beats(1, 0) && !legal(1)) {
                    fire(line, "illegal-first");
                }
            }
        }
    }
    if last.0 > 0 && last.0 < recorded {
        fire(last.1, "after-verdict");
    }
    Ok(fired)
}

/// Where the solved game `input` exercises each rule: the game's settings
/// (the variant, `R p`, the queries) at line 0, and each value printed
/// `0.000000000` in `strategy` (`ji_solver --strategy`'s stdout), which may
/// have been a negative zero.
///
/// # Errors
/// An input that cannot be read, as a message.
pub fn solver_firings(input: &[u8], strategy: &str) -> Result<Vec<Firing>, String> {
    let (v, mut lx) = read_variant(input)?;
    let mut fired = Vec::new();
    let mut fire = |line: usize, rule: &'static str| fired.push(Firing { line, rule });
    let mut next = || lx.next().map(|t| String::from_utf8_lossy(t.text).into_owned());
    let no_line = "the input has no `R p` line";
    let rounds: u64 = next().ok_or(no_line)?.parse().map_err(|_| "R is not a number")?;
    let p_text = next().ok_or(no_line)?;
    let p: f64 = p_text.parse().map_err(|_| "p is not a number")?;
    let queries_lost = std::iter::from_fn(next).any(|t| t == "lost");
    fire(0, "simultaneous-moves");
    let skills = &v.skills;
    let c = skills.iter().map(|s| s.req).max().unwrap_or(0);
    if skills.iter().any(|s| s.delta > 0) {
        fire(0, "cap");
        fire(0, "delta");
    }
    if c == 0 {
        fire(0, "cap-zero");
    }
    if skills.iter().any(|s| s.req > 0) {
        fire(0, "cost");
    }
    if skills.iter().any(|s| s.req > 0 && s.req > -s.delta) {
        fire(0, "unlimited-ji");
    }
    if !skills.iter().any(|s| s.req == 0) {
        fire(0, "no-free-skill");
    }
    let n = skills.len() as u32;
    if (0..n).any(|x| (0..n).any(|y| v.beats(x, y))) {
        fire(0, "beats");
    }
    if !v.lasting.is_empty() {
        fire(0, "lasting");
    }
    if queries_lost {
        fire(0, "lasting-state");
    }
    if p_text.contains('.') {
        fire(0, "p-decimal");
    }
    match (rounds, p > 0.0) {
        (0, false) => {
            fire(0, "unlimited-game");
            // A skill nothing beats that leaves its user's count as it is.
            let unbeaten = |y: u32| !(0..n).any(|x| v.beats(x, y));
            if (0..n).any(|y| unbeaten(y) && skills[y as usize].delta == 0) {
                fire(0, "stall");
            }
        }
        (0, true) => {
            fire(0, "discounted-limit");
            fire(0, "draw-chance");
        }
        (_, drawn) => {
            fire(0, "round-limit");
            if drawn {
                fire(0, "draw-chance");
            }
        }
    }
    for (k, line) in strategy.lines().enumerate() {
        if line == "0.000000000" {
            fire(k + 1, "negative-zero");
        }
    }
    Ok(fired)
}
