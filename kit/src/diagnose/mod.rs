//! `kit diagnose`: which rule of the statement a program most likely
//! misreads. It plays many generated games with our solver (with its
//! trace) and the program, keeps for each game whether the program failed
//! and which rules our run exercised, and ranks the rules by how the
//! failures line up with them ([`spectrum`]). Then it confirms the top
//! suspects with targeted games: more games of the profiles where each
//! suspect fires most, and the games one step smaller than the smallest
//! failing game, which it finds with the stress shrinker (where the
//! misread rule fires, and where it stops firing the failure stops too).
//! It prints the suspects, one a line, with their evidence and the
//! statement's sentence, then the smallest failing game with the trace
//! lines where the first suspect fires marked.
//!
//! What is no rule's fault is said so, never blamed on a rule: a program
//! that crashes or runs over a limit (those games are set aside), prints
//! what is not an answer, or answers one game two ways. Deterministic
//! with the seed (and a deterministic program), whatever `--jobs`.
//!
//! The rooms: [`rulebook`] (the rules, by the rules room), [`spectrum`]
//! (the counts and the ranking), [`play`] (the games), [`report`] (what is
//! printed); here, the diagnosis as a whole.

pub mod play;
pub mod report;
pub mod rulebook;
pub mod spectrum;

use crate::error::Result;
use crate::judge::Limits;
use crate::problems::Problem;
use crate::run::Cmd;
use crate::stress::cases::Cases;
use crate::stress::trial::Trial;
use crate::stress::{self, Budget, Progress};
use play::{Answer, Draw, Game, Setup, Table};
use report::Report;
use rulebook::Rulebook;
use spectrum::{Observed, Ranked};
use std::io::Write;
use std::time::Duration;

/// The games of the first look by default (`--games`): measured on the
/// planted misreadings of tests/diagnose.rs (bench/RESULTS.md).
pub const GAMES: u64 = 300;

/// Wrong answers that make enough evidence; with fewer, the first look
/// goes on, for at most this many times its games more.
const ENOUGH_WRONG: usize = 8;
const MORE_LOOKS: u64 = 3;

/// The suspects that get targeted games, and how many games each gets
/// (a share of `--games`).
const TARGETED: usize = 3;
const TARGETED_SHARE: u64 = 4;

/// The failing games run twice to tell a nondeterministic program.
const RERUNS: usize = 12;

/// The first games, played before the rest: if the program fails all of
/// them without a well-formed answer, the diagnosis stops there.
const FIRST_LOOK: u64 = 24;

/// How long the smallest failing game may take to find, and the
/// neighbours of it played at most.
const SHRINK: Budget = Budget { time: Duration::from_secs(20), candidates: 600 };
const NEIGHBOURS: usize = 200;

/// What `kit diagnose` runs.
pub struct Diagnose<'a> {
    pub problem: &'a dyn Problem,
    pub seed: u64,
    /// Our solver, as for `kit stress` (its trace flag is added here).
    pub solver: &'a Cmd,
    /// The program diagnosed and the limits of each of its runs.
    pub cmd: &'a Cmd,
    pub limits: Limits,
    /// Games of the first look.
    pub games: u64,
    /// Games played at once.
    pub jobs: usize,
}

/// A suspect rule and its evidence.
#[derive(Clone, Debug)]
pub struct Suspect {
    pub id: &'static str,
    pub ranked: Ranked,
}

/// What the diagnosis found.
#[derive(Clone, Debug)]
pub enum Finding {
    /// The problem has no rule catalogue.
    NoCatalogue,
    /// The program agreed on every game.
    Agrees { games: usize },
    /// It failed, but never by a well-formed wrong answer.
    NotARule,
    /// Two runs of one game differed.
    Nondeterministic,
    /// The suspects, best first (ties share a rank).
    Suspects(Vec<Suspect>),
}

impl Finding {
    /// The rank of rule `id` among the suspects (ties: the worst place
    /// of the tie, so a tie of two at the top is rank 2 for both), if it
    /// is one.
    pub fn place_of(&self, id: &str) -> Option<usize> {
        let Finding::Suspects(suspects) = self else {
            return None;
        };
        let me = suspects.iter().find(|s| s.id == id)?;
        Some(suspects.iter().filter(|s| s.ranked.rank <= me.ranked.rank).count())
    }
}

/// The profiles of the first look: all but the big and the longest ones
/// (`big`, `max_rounds`, `long_illegal`, `max_deck`: slow to play, and a
/// misreading shows on smaller games too).
fn profiles(problem: &dyn Problem) -> Vec<&'static str> {
    let slow = |n: &str| ["big", "max", "long"].iter().any(|p| n.starts_with(p));
    problem.profiles().iter().map(|p| p.name).filter(|n| !slow(n)).collect()
}

/// `kit diagnose`: plays, ranks, confirms and reports to `out`.
///
/// # Errors
/// The errors of drawing a case, of starting either program, of the
/// start-up check ([`crate::stress`]) and of writing to `out`.
///
/// Costs `games` games, a quarter of that per targeted suspect, a shrink
/// within [`SHRINK`] and up to [`NEIGHBOURS`] games more.
pub fn diagnose(d: &Diagnose, out: &mut dyn Write, progress: &mut Progress) -> Result<Finding> {
    let name = d.problem.name();
    let report = Report { problem: d.problem, seed: d.seed };
    let Some(book) = Rulebook::of(name) else {
        report.no_catalogue(out)?;
        return Ok(Finding::NoCatalogue);
    };
    let rules = book.rules;
    let traced = if book.one_run() { book.explaining(d.solver) } else { d.solver.clone() };
    let trial = Trial { problem: d.problem, solver: &traced, cmd: d.cmd, limits: d.limits };
    let profiles = profiles(d.problem);
    // As kit stress does: a program that waits or never ends on our
    // smallest input is said so at once. (It also makes the first run on
    // this thread, which holds stderr, where kit says how it measures.)
    let cases = Cases::new(d.problem, profiles[0], d.seed, &traced, None);
    stress::start_up::check(&trial, &cases)?;
    let table = Table { trial, rulebook: &book, plain: d.solver };
    let draw =
        |seed: u64, profile: &'static str, index: u64| Setup::Drawn(Draw { profile, seed, index });
    let first: Vec<Setup> =
        (0..d.games).map(|i| draw(d.seed, profiles[i as usize % profiles.len()], i)).collect();
    let (head, tail) = first.split_at(FIRST_LOOK.min(d.games) as usize);
    let mut games = table.play_all(head, d.jobs, "first look", progress)?;
    let wrong = |games: &[Game]| games.iter().filter(|g| g.answer == Answer::Wrong).count();
    let failed = |games: &[Game]| games.iter().filter(|g| g.answer != Answer::Agrees).count();
    if !(wrong(&games) == 0 && failed(&games) == games.len() && !games.is_empty()) {
        games.extend(table.play_all(tail, d.jobs, "first look", progress)?);
        // Few wrong answers are little evidence: more games, up to
        // [`MORE_LOOKS`] times as many.
        for look in 1..=MORE_LOOKS {
            if wrong(&games) >= ENOUGH_WRONG {
                break;
            }
            let more: Vec<Setup> = (look * d.games..(look + 1) * d.games)
                .map(|i| draw(d.seed, profiles[i as usize % profiles.len()], i))
                .collect();
            games.extend(table.play_all(&more, d.jobs, "a longer look", progress)?);
        }
    }
    progress.clear();
    mark_malformed(&mut games);
    if let Some(game) = nondeterministic(&table, &games)? {
        report.nondeterministic(&game, out)?;
        return Ok(Finding::Nondeterministic);
    }
    let first_count = games.len();
    report.first_look(&games, out)?;
    if failed(&games) == 0 {
        report.agrees(games.len(), out)?;
        return Ok(Finding::Agrees { games: games.len() });
    }
    if wrong(&games) == 0 {
        report.not_a_rule(&games, out)?;
        return Ok(Finding::NotARule);
    }
    // Targeted games: the profiles where the top suspects fire most.
    let ranked = rank(&games, rules.len());
    let mut targeted = Vec::new();
    for (k, suspect) in ranked.iter().take(TARGETED).enumerate() {
        let profile = busiest_profile(&games, &profiles, suspect.rule);
        let seed = d.seed.wrapping_add(0x9e37_79b9_7f4a_7c15u64.wrapping_mul(k as u64 + 1));
        let count = (d.games / TARGETED_SHARE).max(1);
        targeted.extend((0..count).map(|i| draw(seed, profile, i)));
    }
    let mut more = table.play_all(&targeted, d.jobs, "targeted games", progress)?;
    mark_malformed(&mut more);
    let targeted_count = more.len();
    games.extend(more);
    // The smallest failing game, and the games one step smaller.
    let smallest = games
        .iter()
        .filter(|g| g.answer == Answer::Wrong)
        .min_by_key(|g| g.input.len())
        .expect("a wrong answer")
        .clone();
    let shrunk = stress::shrink::shrink(&table.trial, smallest.failure(), SHRINK, progress)?;
    let best = table.play(&Setup::Given(shrunk.best.input.clone()))?;
    let near: Vec<Setup> = d
        .problem
        .shrink(&shrunk.best.input)
        .into_iter()
        .take(NEIGHBOURS)
        .map(Setup::Given)
        .collect();
    let mut near =
        table.play_all(&near, d.jobs, "games near the smallest failing one", progress)?;
    progress.clear();
    near.extend(best.clone());
    mark_malformed(&mut near);
    let near_count = near.len();
    games.extend(near);
    let ranked = rank(&games, rules.len());
    let suspects: Vec<Suspect> = ranked
        .iter()
        .filter(|r| r.rank <= 3)
        .map(|r| Suspect { id: rules[r.rule].id, ranked: *r })
        .collect();
    let counts = report::Counts { first: first_count, targeted: targeted_count, near: near_count };
    report.suspects(rules, &suspects, &counts, out)?;
    if let (Some(best), Some(top)) = (best, suspects.first()) {
        report.smallest(&shrunk, &best, &rules[top.ranked.rule], out)?;
    }
    Ok(Finding::Suspects(suspects))
}

/// The ranking of the rules over the games with a well-formed answer.
fn rank(games: &[Game], rules: usize) -> Vec<Ranked> {
    let observed: Vec<Observed> = games
        .iter()
        .filter(|g| matches!(g.answer, Answer::Agrees | Answer::Wrong))
        .map(|g| Observed { failed: g.answer == Answer::Wrong, fired: g.fired.clone() })
        .collect();
    spectrum::rank(&spectrum::tally(&observed, rules))
}

/// The profile where `rule` fires in the largest share of the games.
fn busiest_profile(games: &[Game], profiles: &[&'static str], rule: usize) -> &'static str {
    let share = |p: &str| {
        let of: Vec<&Game> = games.iter().filter(|g| g.profile == p).collect();
        let fired = of.iter().filter(|g| g.fired.binary_search(&rule).is_ok()).count();
        fired as f64 / of.len().max(1) as f64
    };
    let mut best = profiles[0];
    for &p in profiles {
        if share(p) > share(best) {
            best = p;
        }
    }
    best
}

/// Wrong answers that are not of the problem's shape become
/// [`Answer::Malformed`]: a word our answers never hold (a number is
/// always of the shape), no word at all where ours has some, or another
/// number of lines than ours (every problem here answers in a number of
/// lines the input sets).
fn mark_malformed(games: &mut [Game]) {
    let mut words = std::collections::BTreeSet::new();
    for g in games.iter() {
        for w in String::from_utf8_lossy(&g.ours.stdout).split_whitespace() {
            if w.parse::<f64>().is_err() {
                words.insert(w.to_string());
            }
        }
    }
    for g in games.iter_mut().filter(|g| g.answer == Answer::Wrong) {
        let theirs = String::from_utf8_lossy(&g.theirs.stdout).into_owned();
        let ours_empty = g.ours.stdout.iter().all(u8::is_ascii_whitespace);
        let mut tokens = theirs.split_whitespace().peekable();
        let empty = tokens.peek().is_none() && !ours_empty;
        let lines = theirs.lines().count() != g.ours.stdout_text().lines().count();
        if empty || lines || tokens.any(|w| w.parse::<f64>().is_err() && !words.contains(w)) {
            g.answer = Answer::Malformed;
        }
    }
}

/// The first failing game (not by time) on which a second run of the
/// program answers otherwise, among the first [`RERUNS`].
fn nondeterministic(table: &Table, games: &[Game]) -> Result<Option<Game>> {
    let failing = games.iter().filter(|g| match g.answer {
        Answer::Agrees => false,
        Answer::Failed(kind) => !kind.by_time(),
        Answer::Wrong | Answer::Malformed => true,
    });
    for game in failing.take(RERUNS) {
        let again = table.trial.run_theirs(&game.input)?;
        if again.stdout != game.theirs.stdout || again.success() != game.theirs.success() {
            return Ok(Some(game.clone()));
        }
    }
    Ok(None)
}
