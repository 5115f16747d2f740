//! Unit tests of the trainer on variants with lasting effects (pulled in
//! by main.rs's `mod lasting_tests`): the model against a naive one written
//! straight from the rule (docs/ji.md, "Lasting effects"), the refusal
//! beyond the table's bound, dominance keeping the value, the play screen,
//! and the archive.

use std::collections::{BTreeSet, HashSet, VecDeque};
use std::path::PathBuf;

use crate::archive::*;
use crate::eval::*;
use crate::format;
use crate::model::*;
use crate::rng::*;
use crate::session::*;
use crate::train::*;
use crate::variant::*;

/// A side's lost skills as the naive model holds them.
type Lost = BTreeSet<u32>;

/// A random small variant with a `lasting` section, valid by construction:
/// 2 to 5 skills, deltas -2..=2, "beats" drawn per pair, and 1 to 3
/// lasting effects on pairs where neither beats the other (a skill may
/// meet itself).
fn random_lasting_variant(rng: &mut Rng) -> String {
    let n = 2 + rng.below(4);
    let mut beats = vec![vec![false; n]; n];
    let pairs: Vec<(usize, usize)> = (0..n).flat_map(|x| (x + 1..n).map(move |y| (x, y))).collect();
    for (x, y) in pairs {
        match rng.below(10) {
            0..=3 => beats[x][y] = true,
            4..=6 => beats[y][x] = true,
            _ => {}
        }
    }
    let mut text = format!("{n}\n");
    for (x, row) in beats.iter().enumerate() {
        let delta = rng.below(5) as i64 - 2;
        let req = (-delta).max(0) + rng.below(2) as i64;
        let beaten: Vec<String> = (0..n).filter(|&y| row[y]).map(|y| format!("s{y}")).collect();
        text += &format!("s{x} {delta} {req} {} {}\n", beaten.len(), beaten.join(" "));
    }
    let mut free: Vec<(usize, usize)> = (0..n)
        .flat_map(|x| (0..n).map(move |y| (x, y)))
        .filter(|&(x, y)| !beats[x][y] && !beats[y][x])
        .collect();
    let m = 1 + rng.below(3.min(free.len()));
    text += &format!("lasting {m}\n");
    for _ in 0..m {
        let (x, y) = free.remove(rng.below(free.len()));
        let taken: Vec<String> =
            (0..n).filter(|_| rng.below(2) == 0).map(|z| format!("s{z}")).collect();
        let taken = if taken.is_empty() { vec![format!("s{}", rng.below(n))] } else { taken };
        text += &format!("s{x} 1 s{y} {} {}\n", taken.len(), taken.join(" "));
    }
    text
}

/// The shared reader's variant (the format's own `beats` and `takes`,
/// not the trainer's bit masks).
fn read(text: &str) -> format::Variant<'_> {
    let mut lx = format::Lexer::new(text.as_bytes());
    lx.lasting = true;
    format::parse_variant(&mut lx).unwrap_or_else(|f| panic!("{}: {}", f.line, f.what))
}

/// One round that goes on, from the rule: both moves usable, neither
/// beating the other; the mover loses what the opponent's skill takes
/// meeting the mover's, and the other way round.
fn naive_losses(v: &format::Variant, (a, b): &(Lost, Lost), x: u32, y: u32) -> (Lost, Lost) {
    let mut a = a.clone();
    let mut b = b.clone();
    a.extend(v.takes(y, x));
    b.extend(v.takes(x, y));
    (a, b)
}

/// The pairs of lost sets, from the rule, ignoring counts: every pair a
/// round can add, until nothing new comes (a fixed point, not a search).
fn naive_reachable(v: &format::Variant) -> BTreeSet<(Lost, Lost)> {
    let n = v.skills.len() as u32;
    let mut pairs: BTreeSet<(Lost, Lost)> = [(Lost::new(), Lost::new())].into();
    loop {
        let mut grown = pairs.clone();
        for pair in &pairs {
            for x in (0..n).filter(|x| !pair.0.contains(x)) {
                for y in (0..n).filter(|y| !pair.1.contains(y)) {
                    if !v.beats(x, y) && !v.beats(y, x) {
                        grown.insert(naive_losses(v, pair, x, y));
                    }
                }
            }
        }
        if grown.len() == pairs.len() {
            return pairs;
        }
        pairs = grown;
    }
}

/// The pairs of lost sets real games reach: a search over real states
/// (uncapped counts, up to `most`), with every move the rule allows.
fn real_reachable(v: &format::Variant, most: i64) -> BTreeSet<(Lost, Lost)> {
    let n = v.skills.len() as u32;
    type State = (i64, i64, Lost, Lost);
    let start: State = (0, 0, Lost::new(), Lost::new());
    let mut seen: HashSet<State> = [start.clone()].into();
    let mut queue: VecDeque<State> = [start].into();
    while let Some((a, b, la, lb)) = queue.pop_front() {
        let usable =
            |c: i64, lost: &Lost, x: u32| v.skills[x as usize].req <= c && !lost.contains(&x);
        for x in (0..n).filter(|&x| usable(a, &la, x)) {
            for y in (0..n).filter(|&y| usable(b, &lb, y)) {
                if v.beats(x, y) || v.beats(y, x) {
                    continue;
                }
                let (na, nb) = (a + v.skills[x as usize].delta, b + v.skills[y as usize].delta);
                let (la, lb) = naive_losses(v, &(la.clone(), lb.clone()), x, y);
                let next = (na, nb, la, lb);
                if na <= most && nb <= most && seen.insert(next.clone()) {
                    queue.push_back(next);
                }
            }
        }
    }
    seen.into_iter().map(|(_, _, la, lb)| (la, lb)).collect()
}

fn as_set(mask: u64) -> Lost {
    bits(mask).map(|x| x as u32).collect()
}

#[test]
fn the_model_matches_a_naive_one_on_random_lasting_variants() {
    let mut rng = Rng::new(2026);
    let mut taking_rounds = 0;
    // Variants whose table holds exactly the pairs real play reaches.
    let mut same_as_real = 0;
    for case in 0..200 {
        let text = random_lasting_variant(&mut rng);
        let naive = read(&text);
        let model = Model::new(parse_variant(text.as_bytes(), "v", 0).unwrap());
        let (n, cap) = (model.n as u32, model.cap as i64);
        // The pairs of lost sets: the fixed point of the rule, nothing lost
        // first, each once, closed under swapping the sides.
        let pairs: Vec<(Lost, Lost)> =
            model.losses.iter().map(|l| (as_set(l.own), as_set(l.opp))).collect();
        let built: BTreeSet<(Lost, Lost)> = pairs.iter().cloned().collect();
        assert_eq!(built.len(), pairs.len(), "case {case}: a pair twice\n{text}");
        assert_eq!(model.losses[0], Losses::NONE, "case {case}");
        assert_eq!(built, naive_reachable(&naive), "case {case}\n{text}");
        // Every pair a real game reaches is in the table (so `p` always
        // finds the AI's state), searched with counts up to 3 C + 4.
        let real = real_reachable(&naive, 3 * cap + 4);
        assert!(real.is_subset(&built), "case {case}: real play leaves the table\n{text}");
        same_as_real += usize::from(real == built);
        assert_eq!(model.states, built.len() * (model.cap + 1).pow(2), "case {case}");
        // One round from every state, from the rule.
        for s in 0..model.states {
            let (a, b) = model.counts(s);
            let l = model.lost(s);
            let (la, lb) = (as_set(l.own), as_set(l.opp));
            assert_eq!(model.swapped(model.swapped(s)), s);
            assert_eq!(model.counts(model.swapped(s)), (b, a));
            let usable = |c: usize, lost: &Lost| -> u64 {
                (0..n)
                    .filter(|&x| naive.skills[x as usize].req <= c as i64 && !lost.contains(&x))
                    .map(|x| 1u64 << x)
                    .sum()
            };
            assert_eq!(model.usable(s), usable(a, &la), "case {case} state {s}");
            assert_eq!(model.replies(s), usable(b, &lb), "case {case} state {s}");
            assert_eq!(model.playable[s] & !model.usable(s), 0);
            // Who cannot move loses; neither: a draw (docs/ji.md).
            let decided = match (usable(a, &la) == 0, usable(b, &lb) == 0) {
                (false, false) => None,
                (true, false) => Some(-1.0),
                (false, true) => Some(1.0),
                (true, true) => Some(0.0),
            };
            assert_eq!(model.decided(s), decided, "case {case} state {s}");
            if model.usable(s) != 0 {
                assert_ne!(model.playable[s], 0, "case {case}: something usable is playable");
            }
            for x in bits(model.usable(s)) {
                for y in bits(model.replies(s)) {
                    let (xi, yi) = (x as u32, y as u32);
                    match model.round(s, x, y) {
                        Round::Won => assert!(naive.beats(xi, yi)),
                        Round::Lost => assert!(naive.beats(yi, xi)),
                        Round::Next(t) => {
                            assert!(!naive.beats(xi, yi) && !naive.beats(yi, xi));
                            let after = |c: usize, z: usize| {
                                (c as i64 + naive.skills[z].delta).clamp(0, cap) as usize
                            };
                            assert_eq!(model.counts(t), (after(a, x), after(b, y)));
                            let want = naive_losses(&naive, &(la.clone(), lb.clone()), xi, yi);
                            let got = model.lost(t);
                            assert_eq!((as_set(got.own), as_set(got.opp)), want, "case {case}");
                            taking_rounds += (want != (la.clone(), lb.clone())) as usize;
                        }
                    }
                }
            }
        }
    }
    assert!(taking_rounds > 1000, "the draws take skills: {taking_rounds} rounds");
    // 89 of these 200 tables hold exactly real play's pairs; the others
    // hold pairs that the counts keep out of reach (counts are not followed).
    assert_eq!(same_as_real, 89);
}

/// The k-round values (value iteration on the stage games from 0, as
/// `equilibrium` iterates) with `rows(s)` the mover's skills at s.
fn k_round_values(model: &Model, rows: impl Fn(usize) -> u64, k: usize) -> Vec<f64> {
    let mut value = vec![0.0; model.states];
    for _ in 0..k {
        for s in 0..model.states {
            let cols: Vec<usize> = bits(model.replies(s)).collect();
            let vs = &value;
            let payoff = |x: usize| cols.iter().map(move |&y| model.payoff(s, x, y, vs));
            let mat: Vec<f64> = bits(rows(s)).flat_map(payoff).collect();
            let count = rows(s).count_ones() as usize;
            value[s] = crate::simplex::matrix_game(&mat, count, cols.len()).0;
        }
    }
    value
}

#[test]
fn dropping_dominated_skills_keeps_the_value() {
    // Dominance keeps every k-round value (the ranking holds for each), up
    // to the simplex's rounding.
    let mut rng = Rng::new(7);
    for case in 0..40 {
        let text = random_lasting_variant(&mut rng);
        let model = Model::new(parse_variant(text.as_bytes(), "v", 0).unwrap());
        let all = k_round_values(&model, |s| model.usable(s), 30);
        let kept = k_round_values(&model, |s| model.playable[s], 30);
        for s in 0..model.states {
            assert!((all[s] - kept[s]).abs() < 1e-9, "case {case} state {s}\n{text}");
        }
    }
}

#[test]
fn a_table_beyond_the_bound_is_refused_in_the_trainers_words() {
    // Seven skills each side can lose on its own: 128 lost sets a side,
    // 16384 pairs, over the 4096 states of the bound (C = 0: one pair of
    // counts).
    let mut text = "8\nw 0 0 0\n".to_string();
    for i in 0..7 {
        text += &format!("a{i} 0 0 0\n");
    }
    text += "lasting 7\n";
    for i in 0..7 {
        text += &format!("w 1 a{i} 1 a{i}\n");
    }
    let extra = format!("{text}x\n");
    let e = parse_variant(extra.as_bytes(), "v.txt", 0).unwrap_err();
    assert_eq!(e.to_string(), "v.txt: line 18: extra token `x` after the last lasting effect");
    let e = parse_variant(text.as_bytes(), "v.txt", 0).unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert_eq!(
        e.to_string(),
        "v.txt: lasting effects: the AI's table would need at least 4097 states ((C + 1)² = 1 \
         pairs of counts x at least 4097 pairs of lost sets): the trainer handles at most 4096"
    );
    // Six such skills: 4096 pairs, exactly the bound.
    let six =
        text.replace("8\n", "7\n").replace("a6 0 0 0\n", "").replace("lasting 7", "lasting 6");
    let six = six.replace("w 1 a6 1 a6\n", "");
    let model = Model::new(parse_variant(six.as_bytes(), "v", 0).unwrap());
    assert_eq!((model.losses.len(), model.states), (4096, 4096));
}

/// The showcase variant of the docs (the common one with a breakthrough
/// per defence) fits: 64 pairs of lost sets, 2,304 states.
#[test]
fn the_showcase_variant_fits_the_bound() {
    let text = include_str!("../data/ji_variant/common_breakthrough_per_defence.txt");
    let model = Model::new(parse_variant(text.as_bytes(), "v", 0).unwrap());
    assert_eq!((model.losses.len(), model.states), (64, 2304));
}

/// The bobozan anchor's smallest breakthrough variant: k = 4, attack1,
/// breakthrough2 taking defence.
fn breakthrough() -> Model {
    let text = include_str!("../data/ji_solver/bobozan/k4_a1_b2.variant");
    Model::new(parse_variant(text.as_bytes(), "k4_a1_b2.variant", 0).unwrap())
}

#[test]
fn a_breakthrough_variant_trains_and_is_evaluated() {
    let model = breakthrough();
    assert_eq!((model.cap, model.losses.len(), model.states), (4, 4, 100));
    let (value, eq) = equilibrium(&model);
    assert!(value[0].abs() < 1e-9, "symmetric: {}", value[0]);
    let uniform = model.policy(&vec![1.0; model.genes()]);
    let before = exact_best_response(&model, &uniform)[0] - value[0];
    let mut t = Trainer::new(&model, &value, Trainer::fresh(&model, 5), 0, Rng::new(5));
    let first = t.pop[0].fitness;
    for _ in 0..30 {
        t.step(&model, &value);
    }
    assert!(t.pop[0].fitness > first);
    let ai = model.policy(&t.pop[0].genes);
    let after = exact_best_response(&model, &ai)[0] - value[0];
    assert!(after < before && after > 0.0, "uniform {before}, trained {after}");
    assert!(exact_best_response(&model, &eq)[0] - value[0] < 1e-3);
}

#[test]
fn archive_round_trip_with_losses() {
    let model = breakthrough();
    let (value, _) = equilibrium(&model);
    let mut t = Trainer::new(&model, &value, Trainer::fresh(&model, 2), 0, Rng::new(2));
    t.step(&model, &value);
    let text = archive_text(&model, &t);
    assert!(text.starts_with("ji-archive 2\nvariant 5\n"), "{text}");
    assert!(text.contains("\nlasting 1\nbreakthrough2 1 defence 1 defence\ngeneration 1\n"));
    assert!(text.contains("\npopulation 40 100\n"));
    assert!(text.contains("\n0 0 lost 0 0 "), "{text}");
    assert!(text.contains("\n2 1 lost 1 defence 0 "), "{text}");
    assert!(text.contains("\n4 4 lost 1 defence 1 defence "), "{text}");
    let archive = parse_archive(text.as_bytes(), "a", &model).unwrap();
    let genes: Vec<Vec<f64>> = t.pop.iter().map(|i| i.genes.clone()).collect();
    assert_eq!((archive.generation, archive.population), (1, genes));
    // The lost sets are checked as the counts are; another lasting
    // section is another variant.
    let cases = [
        (
            text.replacen("\n2 1 lost 1 defence 0 ", "\n2 1 lost 0 0 ", 1),
            "expected the weights of state 2 1 lost 1 defence 0",
        ),
        (
            text.replacen("1 defence\ngeneration", "1 energy\ngeneration", 1),
            "line 2: archive is for another variant (other lasting effects",
        ),
        (text.replacen("lasting 1\n", "lasting 99\n", 1), "line 8: expected 'lasting M'"),
    ];
    for (bad, want) in cases {
        match parse_archive(bad.as_bytes(), "a", &model) {
            Err(e) => assert!(e.to_string().contains(want), "{e}"),
            Ok(_) => panic!("{want}: accepted"),
        }
    }
}

#[test]
fn an_archive_of_the_previous_version_still_loads() {
    // Written by the trainer before lasting effects (`t 1`, --seed 3).
    let old = include_str!("../data/ji/archive_version_1.txt");
    let variant = "3\nenergy 1 0 0\ndefence 0 0 0\nattack -1 1 1 energy\n";
    let model = Model::new(parse_variant(variant.as_bytes(), "v", 0).unwrap());
    let archive = parse_archive(old.as_bytes(), "old", &model).unwrap();
    assert_eq!((archive.generation, archive.population.len()), (1, 40));
    // Rewritten unchanged: version 1 stays version 1, byte for byte.
    let (value, _) = equilibrium(&model);
    let t = Trainer::new(&model, &value, archive.population, archive.generation, archive.rng);
    assert_eq!(archive_text(&model, &t), old);
}

const PIPES: Terminal = Terminal { input: false, output: false };

/// A session on `variant` whose AI plays `favourite` wherever it may, else
/// the first skill it may play.
fn session_with_an_ai_that_plays(variant: Variant, favourite: usize) -> Session {
    let options =
        Options { variant: None, archive: PathBuf::from("/nonexistent/a"), seed: Some(1) };
    let mut session = Session::new(variant, &options, &mut Vec::new()).unwrap();
    let m = &session.model;
    let mut genes = vec![0.0; m.genes()];
    for s in 0..m.states {
        let pick = match m.playable[s] >> favourite & 1 {
            1 => favourite,
            _ => bits(m.playable[s]).next().unwrap_or(0),
        };
        for (i, x) in bits(m.playable[s]).enumerate() {
            genes[m.offset[s] + i] = if x == pick { 1.0 } else { 0.0 };
        }
    }
    session.trainer.pop[0].genes = genes;
    session
}

/// The transcript of `moves` typed into `session`.
fn transcript(session: &mut Session, moves: &[u8]) -> String {
    let mut out = Vec::new();
    serve(session, &mut &moves[..], &mut out, PIPES).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn who_cannot_move_loses() {
    // A breakthrough that takes both energy and defence: a side left at
    // 0 集 without them has nothing to play.
    let text = "3\nenergy 1 0 0\ndefence 0 0 0\nbreak -1 1 1 energy\n\
                lasting 1\nbreak 1 defence 2 energy defence\n";
    let variant = parse_variant(text.as_bytes(), "v", 0).unwrap();
    let model = Model::new(variant.clone());
    let all = Losses { own: 0b011, opp: 0 };
    let stuck = model.state(0, 1, all).unwrap();
    assert_eq!(model.decided(stuck), Some(-1.0));
    assert_eq!(model.decided(model.swapped(stuck)), Some(1.0));
    let both = model.state(0, 0, Losses { own: 0b011, opp: 0b011 }).unwrap();
    assert_eq!(model.decided(both), Some(0.0));
    let (value, eq) = equilibrium(&model);
    assert_eq!((value[stuck], value[model.swapped(stuck)], value[both]), (-1.0, 1.0, 0.0));
    // A best reply at a state where the AI cannot move wins at once.
    assert_eq!(exact_best_response(&model, &eq)[stuck], 1.0);
    let mut session = session_with_an_ai_that_plays(variant, 2);
    let text = transcript(&mut session, b"p\ndefence\ndefence\n");
    let expected = "\
you: defence, AI: break -> neither beats the other: go on
lasting: you lose energy defence for the rest of the game
round 3: you 0 集, AI 0 集; lost: you energy defence, AI none; you cannot move: the AI wins. \
p plays again, h for help
";
    assert!(text.ends_with(expected), "{text}");
}

#[test]
fn the_play_screen_shows_losses_and_refuses_a_lost_skill() {
    // An AI that plays breakthrough2 wherever it may, else energy: after
    // two rounds of energy, your defence meets its breakthrough.
    let mut session = session_with_an_ai_that_plays(breakthrough().variant, 3);
    let text = transcript(&mut session, b"p\nenergy\nenergy\ndefence\ndefence\n2\nq\n");
    let expected = "\
round 1: you 0 集, AI 0 集; lost: you none, AI none; you may play:
  1 energy, 2 defence
you: energy, AI: energy -> neither beats the other: go on
round 2: you 1 集, AI 1 集; lost: you none, AI none; you may play:
  1 energy, 2 defence, 3 attack1
you: energy, AI: energy -> neither beats the other: go on
round 3: you 2 集, AI 2 集; lost: you none, AI none; you may play:
  1 energy, 2 defence, 3 attack1, 4 breakthrough2
you: defence, AI: breakthrough2 -> neither beats the other: go on
lasting: you lose defence for the rest of the game
round 4: you 2 集, AI 0 集; lost: you defence, AI none; you may play:
  1 energy, 2 attack1, 3 breakthrough2
refused: defence is lost: a lasting effect took it; try again
you: attack1, AI: energy -> you win (attack1 beats energy)
game over after 4 rounds: you win. p plays again, h for help
";
    assert!(text.ends_with(expected), "{text}");
    // The rules list the lasting effect.
    assert!(text.contains("  breakthrough2 meets defence: takes defence\n"), "{text}");
}

#[test]
fn outcomes_solved_a_pair_of_lost_sets_at_a_time_match_value_iteration() {
    // `solve_chain` solves each pair of lost sets alone, the pairs with
    // more lost skills first; value iteration over the whole chain, where
    // it converges, gives the same P(win).
    let mut rng = Rng::new(11);
    let mut checked = 0;
    for case in 0..60 {
        let text = random_lasting_variant(&mut rng);
        let model = Model::new(parse_variant(text.as_bytes(), "v", 0).unwrap());
        if model.losses.len() < 2 {
            continue;
        }
        let uniform = model.policy(&vec![1.0; model.genes()]);
        let o = outcomes(&model, &uniform, &uniform);
        let mut win = vec![0.0; model.states];
        for _ in 0..20_000 {
            let mut change: f64 = 0.0;
            for s in 0..model.states {
                let sb = model.swapped(s);
                let v = match model.decided(s) {
                    Some(d) => f64::from(d > 0.0),
                    None => bits(model.playable[s])
                        .flat_map(|x| bits(model.playable[sb]).map(move |y| (x, y)))
                        .map(|(x, y)| {
                            let p = uniform[s * model.n + x] * uniform[sb * model.n + y];
                            p * match model.round(s, x, y) {
                                Round::Won => 1.0,
                                Round::Lost => 0.0,
                                Round::Next(t) => win[t],
                            }
                        })
                        .sum(),
                };
                change = change.max((v - win[s]).abs());
                win[s] = v;
            }
            if change < 1e-15 {
                assert!((win[0] - o.win).abs() < 1e-9, "case {case}: {} {}\n{text}", win[0], o.win);
                checked += 1;
                break;
            }
        }
    }
    assert!(checked >= 15, "{checked} variants converged");
}
