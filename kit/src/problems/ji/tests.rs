//! The 集 problems' generators and shrinkers, against the format's rules.

use super::super::strict_lines;
use super::referee::*;
use super::solver::*;
use super::variant::*;
use crate::problems::Problem;
use crate::rng::Rng;

/// The kit's common variant is read from the repository's one definition
/// (the file our 集 programs' tests read), and writes it back byte for byte.
#[test]
fn the_common_variant_is_the_one_definition() {
    let mut text = String::new();
    Variant::common().render(&mut text);
    assert_eq!(text, include_str!("../../../../tests/data/ji_variant/common.txt"));
}

/// The variant's lines: `n`, then n lines of 4 + k tokens, then maybe
/// `lasting m` and m lines `skill j met.. t taken..`. Returns the line
/// index after the variant.
fn check_variant(lines: &[&str]) -> usize {
    let n: usize = lines[0].parse().unwrap();
    for line in &lines[1..=n] {
        let t: Vec<&str> = line.split(' ').collect();
        let k: usize = t[3].parse().unwrap();
        assert_eq!(t.len(), 4 + k, "{line}");
        assert!(t[0].len() <= 32);
        let (delta, req): (i64, i64) = (t[1].parse().unwrap(), t[2].parse().unwrap());
        assert!(req >= 0 && req >= -delta, "{line}");
    }
    let Some(m) = lines[n + 1].strip_prefix("lasting ") else { return n + 1 };
    let m: usize = m.parse().unwrap();
    for line in &lines[n + 2..n + 2 + m] {
        let t: Vec<&str> = line.split(' ').collect();
        let j: usize = t[1].parse().unwrap();
        let taken: usize = t[2 + j].parse().unwrap();
        assert!(j >= 1 && taken >= 1 && t.len() == 3 + j + taken, "{line}");
    }
    n + 2 + m
}

/// The text's variant as the 集 format's one reader reads it (ji_referee,
/// ji_solver and the trainer read with the same code).
fn master_reads(text: &str) -> crate::ji::format::Variant<'_> {
    match crate::ji::read_variant(text.as_bytes()) {
        Ok((v, _)) => v,
        Err(why) => panic!("{why}\n{text}"),
    }
}

fn check_referee(text: &str) -> Record {
    let lines = strict_lines(text);
    let i = check_variant(&lines);
    let r: usize = lines[i].parse().unwrap();
    assert_eq!(lines.len(), i + 1 + r);
    assert!(lines[i + 1..].iter().all(|l| l.split(' ').count() == 2));
    master_reads(text);
    let rec = Record::parse(text).expect("valid record");
    assert_eq!(rec.render(), text);
    rec
}

fn check_solver(text: &str) -> Solve {
    let lines = strict_lines(text);
    let i = check_variant(&lines);
    assert_eq!(lines[i].split(' ').count(), 2);
    let q: usize = lines[i + 1].parse().unwrap();
    assert_eq!(lines.len(), i + 2 + q);
    for line in &lines[i + 2..] {
        let t: Vec<&str> = line.split(' ').collect();
        if t.len() > 2 {
            // `x y lost i a.. j b..`
            let a: usize = t[3].parse().unwrap();
            let b: usize = t[4 + a].parse().unwrap();
            assert!(t[2] == "lost" && t.len() == 5 + a + b, "{line}");
        }
    }
    master_reads(text);
    let s = Solve::parse(text).expect("valid solver input");
    assert_eq!(s.render(), text);
    s
}

#[test]
fn same_seed_same_bytes_and_strict_format() {
    for p in REFEREE_PROFILES {
        // Records of up to 200,000 rounds: a few seeds are enough.
        let long = p.name.starts_with("long") || p.name.starts_with("max");
        for seed in 0..if long { 3 } else { 20 } {
            let a = JiReferee.generate(p.name, &mut Rng::new(seed)).unwrap();
            assert_eq!(a, JiReferee.generate(p.name, &mut Rng::new(seed)).unwrap());
            check_referee(&a);
        }
    }
    for p in SOLVER_PROFILES {
        for seed in 0..30 {
            let a = JiSolver.generate(p.name, &mut Rng::new(seed)).unwrap();
            assert_eq!(a, JiSolver.generate(p.name, &mut Rng::new(seed)).unwrap());
            let s = check_solver(&a);
            assert!(s.variant.cap() <= 1000 && s.variant.skills.len() <= 64);
        }
    }
}

#[test]
fn the_common_variant_is_the_readme_one() {
    let mut s = String::new();
    Variant::common().render(&mut s);
    assert!(s.starts_with("8\n集 1 0 0\n小防 0 0 0\n"));
    assert!(s.ends_with("\n黑洞 -5 5 7 集 小波 小防 中波 中防 大波 大防\n"));
}

#[test]
fn profiles_have_their_corners() {
    for seed in 0..30 {
        let v = referee(RefereeKind::Cycles, &mut Rng::new(seed)).variant;
        let n = v.skills.len();
        let cycle = (0..n).any(|a| {
            (0..n).any(|b| (0..n).any(|c| v.beats(a, b) && v.beats(b, c) && v.beats(c, a)))
        });
        assert!(cycle, "seed {seed}");
        let r = referee(RefereeKind::LargeC, &mut Rng::new(seed)).variant;
        assert!(r.skills.iter().any(|k| k.delta >= 1 && k.req == 0));
        let s = solver(SolverKind::RoundLimits, &mut Rng::new(seed));
        assert!((1..=1000).contains(&s.rounds) && s.p == "0");
        let c = solver(SolverKind::LargeC, &mut Rng::new(seed)).variant.cap();
        assert!((40..=200).contains(&c));
    }
    let infinite = (0..30).any(|seed| {
        let v = solver(SolverKind::InfiniteJi, &mut Rng::new(seed)).variant;
        v.skills.iter().any(|k| k.delta < 0 && k.req > -k.delta)
    });
    assert!(infinite);
}

#[test]
fn max_rounds_plays_every_round() {
    for seed in 0..2 {
        let rec = referee(RefereeKind::MaxRounds, &mut Rng::new(seed));
        assert_eq!(rec.rounds.len(), 200_000);
        let v = &rec.variant;
        let mut count = [0i128; 2];
        for &(a, b) in &rec.rounds {
            assert!(v.skills[a].req as i128 <= count[0]);
            assert!(v.skills[b].req as i128 <= count[1]);
            assert!(!v.beats(a, b) && !v.beats(b, a));
            count[0] += v.skills[a].delta as i128;
            count[1] += v.skills[b].delta as i128;
        }
    }
}

#[test]
fn shrink_candidates_are_valid_and_smaller() {
    for p in REFEREE_PROFILES
        .iter()
        .filter(|p| !p.name.starts_with("long") && !p.name.starts_with("max"))
    {
        for seed in 0..5 {
            let text = JiReferee.generate(p.name, &mut Rng::new(seed)).unwrap();
            let m = record_measure(&Record::parse(&text).unwrap());
            for c in JiReferee.shrink(&text) {
                assert!(record_measure(&check_referee(&c)) < m, "{c}");
            }
        }
    }
    for p in SOLVER_PROFILES {
        for seed in 0..5 {
            let text = JiSolver.generate(p.name, &mut Rng::new(seed)).unwrap();
            let m = solve_measure(&Solve::parse(&text).unwrap());
            for c in JiSolver.shrink(&text) {
                assert!(solve_measure(&check_solver(&c)) < m, "{c}");
            }
        }
    }
}

#[test]
fn shrinking_reaches_one_skill() {
    let mut text = JiReferee.generate("common", &mut Rng::new(1)).unwrap();
    while let Some(next) = JiReferee.shrink(&text).into_iter().next() {
        text = next;
    }
    assert_eq!(text, "1\na 0 0 0\n1\na a\n");
    let mut text = JiSolver.generate("cycles", &mut Rng::new(1)).unwrap();
    while let Some(next) = JiSolver.shrink(&text).into_iter().next() {
        text = next;
    }
    let s = Solve::parse(&text).unwrap();
    assert_eq!((s.variant.skills.len(), s.queries.len()), (1, 1));
}

/// Plays a record as the referee's rules say (docs/ji.md, lasting effects)
/// and says whether some side plays a skill it has lost while it holds the
/// 集 for it: the corner the `lasting` profile exists for.
fn plays_a_lost_skill(rec: &Record) -> bool {
    let v = &rec.variant;
    let n = v.skills.len();
    let mut count = [0i128; 2];
    let mut lost = [vec![false; n], vec![false; n]];
    for &(a, b) in &rec.rounds {
        let enough = [v.skills[a].req as i128 <= count[0], v.skills[b].req as i128 <= count[1]];
        if (enough[0] && lost[0][a]) || (enough[1] && lost[1][b]) {
            return true;
        }
        if !enough[0] || !enough[1] || lost[0][a] || lost[1][b] || v.beats(a, b) || v.beats(b, a) {
            return false;
        }
        count[0] += v.skills[a].delta as i128;
        count[1] += v.skills[b].delta as i128;
        for e in &v.lasting {
            if e.skill == a && e.met.contains(&b) {
                e.taken.iter().for_each(|&z| lost[1][z] = true);
            }
            if e.skill == b && e.met.contains(&a) {
                e.taken.iter().for_each(|&z| lost[0][z] = true);
            }
        }
    }
    false
}

#[test]
fn the_lasting_profiles_have_effects_and_use_them() {
    let mut played_lost = 0;
    for seed in 0..100 {
        let rec = referee(RefereeKind::Lasting, &mut Rng::new(seed));
        assert!((1..=3).contains(&rec.variant.lasting.len()), "seed {seed}");
        played_lost += usize::from(plays_a_lost_skill(&rec));
        let s = solver(SolverKind::Lasting, &mut Rng::new(seed));
        let sets = s.variant.lost_sets().unwrap();
        assert!(!s.variant.lasting.is_empty() && sets.len() <= 4, "seed {seed}");
        assert!(s.queries.iter().all(|q| sets.contains(&q.lost[0]) && sets.contains(&q.lost[1])));
    }
    assert!(played_lost >= 10, "{played_lost} of 100 records play a lost skill");
    let lost_queries = (0..20)
        .flat_map(|seed| solver(SolverKind::Lasting, &mut Rng::new(seed)).queries)
        .filter(|q| !q.lost[0].is_empty() || !q.lost[1].is_empty())
        .count();
    assert!(lost_queries >= 20, "{lost_queries}");
}

/// Shrinking a lasting input keeps its section valid (every candidate
/// parses, checked above) and can drop each part of it: an effect, a met
/// or a taken name, a skill with every mention of it.
#[test]
fn shrinking_drops_effects_names_and_skills_with_their_references() {
    let text = "3\na 1 0 0\nb 0 0 0\nc -1 1 1 a\nlasting 2\nc 2 b c 2 b a\nb 1 b 1 c\n1\na a\n";
    let candidates: Vec<String> = JiReferee.shrink(text);
    let has = |s: &str| candidates.iter().any(|c| c.contains(s));
    assert!(has("lasting 1\nc 2 b c 2 b a\n1\n"), "the second effect dropped");
    assert!(has("lasting 1\nb 1 b 1 c\n1\n"), "the first effect dropped");
    assert!(has("c 1 c 2 b a\n"), "a met name dropped");
    assert!(has("c 2 b c 1 a\n"), "a taken name dropped");
    // Without b: c's effect meets and takes only what is left, b's goes.
    assert!(has("2\na 1 0 0\nc -1 1 1 a\nlasting 1\nc 1 c 1 a\n1\na a\n"), "{candidates:?}");
    // Without c: its effect goes, and b's, which took only c.
    assert!(has("2\na 1 0 0\nb 0 0 0\n1\na a\n"), "{candidates:?}");
    let solve = "2\na 1 0 0\nb 0 0 0\nlasting 1\na 1 b 1 b\n0 1\n2\n0 0 lost 0 1 b\n0 0\n";
    let s = Solve::parse(solve).unwrap();
    assert_eq!(s.queries[0].lost, [vec![], vec![1]]);
    let shrunk: Vec<String> = JiSolver.shrink(solve);
    // Without the effect, no query may name a loss: B has lost nothing.
    assert!(shrunk.contains(&"2\na 1 0 0\nb 0 0 0\n0 1\n2\n0 0\n0 0\n".to_string()), "{shrunk:?}");
    assert!(shrunk.iter().any(|c| c.ends_with("\n0 0\n0 0\n") && c.contains("lasting")));
    // A loss no effect can cause is no input of ours.
    assert!(Solve::parse(&solve.replace("lost 0 1 b", "lost 1 a 0")).is_none());
}
