//! `kit rules`: each catalogue as `kit rules PROBLEM` prints it and as
//! docs/rules.md shows it (the same), and the rules the fixture games
//! exercise: every rule of every catalogue is reached by some fixture game
//! of its problem, read from our solver's explain output.

use kit::rules::{self, Rule};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod common;

/// The problems with a catalogue, and the folders of `tests/data/PROBLEM`
/// whose games are read (bad input has no game; ji_solver's `slow` cases
/// take seconds each).
const GAMES: [(&str, &[&str]); 4] = [
    ("zhuguosha", &["bad", "format"]),
    ("ants_battle", &["bad", "strict"]),
    ("ji_referee", &["bad", "format"]),
    ("ji_solver", &["bad", "format", "slow", "bobozan"]),
];

fn inputs(dir: &Path, skip: &[&str], found: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if !skip.contains(&name.as_str()) {
                inputs(&path, skip, found);
            }
        } else if name.ends_with(".in") {
            found.push(path);
        }
    }
}

/// The rules `input` exercises: our solver run with its explain flag (a
/// plain process: the cost is the solver's), read by `rules::derive`.
/// `None` for an input our solver refuses.
fn exercised(problem: &str, input: &Path) -> Option<rules::Exercised> {
    let flag = rules::explain_flag(problem).unwrap();
    let out = Command::new(common::solver(problem))
        .arg(flag)
        .stdin(std::fs::File::open(input).unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    if code != 0 && !(code == 3 && problem == "zhuguosha") {
        return None;
    }
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let bytes = std::fs::read(input).unwrap();
    let e = rules::derive(problem, &bytes, &text(&out.stdout), &text(&out.stderr));
    Some(e.unwrap_or_else(|e| panic!("{}: {e}", input.display())))
}

#[test]
fn every_rule_is_exercised_by_some_fixture_game() {
    let mut reached: Vec<(&str, BTreeSet<&'static str>, usize)> = Vec::new();
    for (problem, skip) in GAMES {
        let mut found = Vec::new();
        inputs(&common::root().join("tests/data").join(problem), skip, &mut found);
        let mut ids = BTreeSet::new();
        let mut games = 0;
        for input in &found {
            let Some(e) = exercised(problem, input) else { continue };
            games += 1;
            for firing in &e.firings {
                assert!(rules::find(problem, firing.rule).is_some(), "{}", firing.rule);
            }
            ids.extend(e.rules);
        }
        assert!(games >= 20, "{problem}: {games} games");
        reached.push((problem, ids, games));
    }
    // 集's two programs share a catalogue: the referee's games reach the
    // game's rules, the solver's its own (the cap, the round limit, p).
    let ji: BTreeSet<&str> = reached[2].1.union(&reached[3].1).copied().collect();
    for (problem, ids) in
        [("zhuguosha", &reached[0].1), ("ants_battle", &reached[1].1), ("ji_referee", &ji)]
    {
        let missed: Vec<&str> = rules::catalogue(problem)
            .unwrap()
            .iter()
            .map(|r| r.id)
            .filter(|id| !ids.contains(id))
            .collect();
        assert!(missed.is_empty(), "{problem}: no fixture game exercises {missed:?}");
    }
}

/// docs/rules.md's table of one catalogue (`|` escaped).
fn table(rules: &[Rule]) -> String {
    let cell = |s: &str| s.replace('|', "\\|");
    let mut text = String::from("| id | the statement's sentence | in English |\n|---|---|---|\n");
    for r in rules {
        text += &format!("| `{}` | {} | {} |\n", r.id, cell(r.statement), cell(r.english));
    }
    text
}

/// docs/rules.md holds each catalogue's table exactly as the catalogue
/// (and so `kit rules`) has it, each under a heading naming its size.
#[test]
fn docs_rules_md_shows_every_catalogue_as_kit_rules_prints_it() {
    let doc = std::fs::read_to_string(common::root().join("docs/rules.md")).unwrap();
    for (problem, heading) in
        [("zhuguosha", "猪国杀"), ("ants_battle", "Ants"), ("ji_referee", "集")]
    {
        let catalogue = rules::catalogue(problem).unwrap();
        let title = format!("## {heading}: `kit rules {problem}` ({} rules)\n", catalogue.len());
        let at = doc.find(&title).unwrap_or_else(|| panic!("docs/rules.md lacks {title:?}"));
        let expected = table(catalogue);
        let section = &doc[at..];
        let start = section.find("| id |").expect("a table");
        assert_eq!(
            &section[start..start + expected.len().min(section.len() - start)],
            expected,
            "docs/rules.md's table of {problem} differs from the catalogue; it should read:\n{expected}"
        );
    }
}

#[test]
fn kit_rules_prints_each_catalogue_one_rule_a_line() {
    for problem in ["zhuguosha", "ants_battle", "ji_referee", "ji_solver"] {
        let (code, out, err) = kit::cli::captured(&["rules", problem]);
        assert_eq!((code, err.as_str()), (0, ""), "{problem}");
        let catalogue = rules::catalogue(problem).unwrap();
        assert_eq!(out.lines().count(), catalogue.len());
        for (line, r) in out.lines().zip(catalogue) {
            assert_eq!(line.split('\t').collect::<Vec<_>>(), [r.id, r.statement, r.english]);
        }
    }
    let (code, out, _) = kit::cli::captured(&["rules", "--help"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("usage: kit rules PROBLEM [--game CASE.in [--rule ID]] [--solver PATH]\n"),
        "{out}"
    );
    let (code, out, err) = kit::cli::captured(&["rules", "no_such_problem"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.starts_with("kit: unknown problem `no_such_problem`"), "{err}");
    let (code, _, err) = kit::cli::captured(&["rules", "zhuguosha", "extra"]);
    assert_eq!((code, err.as_str()), (2, "kit: unexpected `extra`\n"));
}

/// `kit rules zhuguosha --game`: the sample's rules, each with the trace
/// lines where it fires.
#[test]
fn kit_rules_game_names_the_rules_of_the_sample_and_their_trace_lines() {
    let sample = common::root().join("tests/data/zhuguosha/sample.in");
    let solver = common::solver("zhuguosha");
    let args = ["rules", "zhuguosha", "--game", sample.to_str().unwrap(), "--solver", solver];
    let (code, out, _) = kit::cli::captured(&args);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\nlike-rebel-mark\t7 8 11 14\n"), "{out}");
    assert!(out.contains("\npenalty\t27\n"), "{out}");
    let ids: Vec<&str> = out.lines().map(|l| l.split('\t').next().unwrap()).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(ids, sorted, "in id order");
    // With --rule: the trace whole, the rule's lines flagged.
    let marked = [&args[..], &["--rule", "like-rebel-mark"]].concat();
    let (code, text, _) = kit::cli::captured(&marked);
    assert_eq!(code, 0, "{text}");
    let trace =
        std::fs::read_to_string(common::root().join("tests/data/zhuguosha/trace/sample.err"));
    let trace = trace.unwrap();
    assert_eq!(text.lines().count(), trace.lines().count());
    for (k, (got, line)) in text.lines().zip(trace.lines()).enumerate() {
        let flag = if [7, 8, 11, 14].contains(&(k + 1)) { ">> " } else { "   " };
        assert_eq!(got, format!("{flag}{line}"));
    }
    let (code, _, err) = kit::cli::captured(&["rules", "zhuguosha", "--rule", "penalty"]);
    assert_eq!(
        (code, err.as_str()),
        (2, "kit: --rule ID marks a game's lines: it needs --game CASE.in\n")
    );
    // The same as the library's answer.
    let e = rules::exercised("zhuguosha", &std::fs::read(&sample).unwrap(), Path::new(solver));
    assert_eq!(rules::exercised_listing(&e.unwrap()), out);
}
