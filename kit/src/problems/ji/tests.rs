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

/// The variant's lines: `n`, then n lines of 4 + k tokens. Returns the
/// line index after the variant.
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
    n + 1
}

fn check_referee(text: &str) -> Record {
    let lines = strict_lines(text);
    let i = check_variant(&lines);
    let r: usize = lines[i].parse().unwrap();
    assert_eq!(lines.len(), i + 1 + r);
    assert!(lines[i + 1..].iter().all(|l| l.split(' ').count() == 2));
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
    assert!(lines[i + 2..].iter().all(|l| l.split(' ').count() == 2));
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
