//! What the diagnosis asks of a problem's rules: the catalogue, the flag
//! that makes our solver write its trace, which rules a trace exercises,
//! and the trace lines where one rule fires. A thin view of the rules room.

/// One rule of a statement.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    pub id: &'static str,
    /// The statement's own sentence.
    pub statement: &'static str,
    pub english: &'static str,
}

/// The problem's rules, if it has a catalogue.
pub fn catalogue(problem: &str) -> Option<&'static [Rule]> {
    match problem {
        "zhuguosha" => Some(ZHUGUOSHA),
        _ => None,
    }
}

/// The flag that makes our solver write its trace to stderr.
pub fn trace_flag(problem: &str) -> &'static str {
    match problem {
        "ants_battle" => "--explain",
        _ => "--trace",
    }
}

/// The rules `trace` exercises, as indices into the catalogue, ascending.
pub fn exercised(problem: &str, trace: &str) -> Vec<usize> {
    let Some(rules) = catalogue(problem) else {
        return Vec::new();
    };
    let mut fired = vec![false; rules.len()];
    for line in trace.lines() {
        for (i, rule) in rules.iter().enumerate() {
            if fires(rule.id, line) {
                fired[i] = true;
            }
        }
    }
    (0..rules.len()).filter(|&i| fired[i]).collect()
}

/// The 1-based numbers of the lines of `trace` where rule `id` fires.
pub fn lines_where(problem: &str, trace: &str, id: &str) -> Vec<usize> {
    let _ = problem;
    trace.lines().enumerate().filter(|(_, l)| fires(id, l)).map(|(i, _)| i + 1).collect()
}

fn fires(id: &str, line: &str) -> bool {
    let w: Vec<&str> = line.split(' ').collect();
    match id {
        "turn" => w[0] == "turn",
        "draw" => w[0] == "draw",
        "peach" => w[0] == "play" && w.get(2) == Some(&"P"),
        "peach-dying" => w[0] == "peach",
        "kill" => w[0] == "play" && w.get(2) == Some(&"K"),
        "dodge" => w[0] == "answer" && w.get(2) == Some(&"D"),
        "duel" => w[0] == "play" && w.get(2) == Some(&"F"),
        "duel-kill" => w[0] == "answer" && w.get(2) == Some(&"K"),
        "invasion" => w[0] == "play" && w.get(2) == Some(&"N"),
        "arrows" => w[0] == "play" && w.get(2) == Some(&"W"),
        "wuxie" => w[0] == "negate",
        "crossbow" => w[0] == "play" && w.get(2) == Some(&"Z"),
        "reveal" => w[0] == "reveal",
        "mark" => w[0] == "mark",
        "unmark" => w[0] == "unmark",
        "reward" => w[0] == "death" && line.contains("reward"),
        "penalty" => w[0] == "death" && line.contains("penalty"),
        "death" => w[0] == "death",
        _ => false,
    }
}

const fn r(id: &'static str) -> Rule {
    Rule { id, statement: "", english: "" }
}

const ZHUGUOSHA: &[Rule] = &[
    r("turn"),
    r("draw"),
    r("peach"),
    r("peach-dying"),
    r("kill"),
    r("dodge"),
    r("duel"),
    r("duel-kill"),
    r("invasion"),
    r("arrows"),
    r("wuxie"),
    r("crossbow"),
    r("reveal"),
    r("mark"),
    r("unmark"),
    r("reward"),
    r("penalty"),
    r("death"),
];
