//! The games of a diagnosis: each drawn from one of our profiles (or
//! given, as the neighbours of a shrunk game), answered by our solver with
//! its trace, run by the program under its limits, and judged; with the
//! rules our solver's run exercised. Many at once with `--jobs`, the
//! results in the order asked whatever the jobs.

use super::rulebook::Rulebook;
use crate::error::Result;
use crate::gen::Source;
use crate::rules::Exercised;
use crate::run::{Cmd, Outcome};
use crate::stress::trial::Trial;
use crate::stress::{Failure, Kind, Progress};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// How the program answered one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Agrees,
    /// A well-formed answer that differs from ours.
    Wrong,
    /// An answer that differs and is not of the problem's shape (words
    /// our answers never hold, or nothing at all).
    Malformed,
    /// A crash or a limit.
    Failed(Kind),
}

/// One game played by our solver and the program.
#[derive(Clone)]
pub struct Game {
    /// The profile it was drawn from (`near` for a neighbour of a shrunk
    /// game).
    pub profile: &'static str,
    pub index: u64,
    pub input: String,
    /// Our run: the answer on stdout, the trace on stderr.
    pub ours: Outcome,
    pub theirs: Outcome,
    pub answer: Answer,
    /// What went wrong, in a line, when it did.
    pub what: String,
    /// The rules our run exercised, and where.
    pub exercised: Exercised,
    /// Their catalogue indices, ascending.
    pub fired: Vec<usize>,
    /// The explain output the firings' lines count.
    pub explained: String,
}

impl Game {
    /// The game as a failure to shrink.
    pub fn failure(&self) -> Failure {
        Failure {
            index: self.index,
            input: self.input.clone(),
            ours: self.ours.clone(),
            theirs: self.theirs.clone(),
            kind: match self.answer {
                Answer::Failed(kind) => kind,
                _ => Kind::Differs,
            },
            what: self.what.clone(),
            made_by: None,
        }
    }
}

/// A game to draw: case `index` of `profile` with `seed`.
#[derive(Clone, Copy, Debug)]
pub struct Draw {
    pub profile: &'static str,
    pub seed: u64,
    pub index: u64,
}

/// A game to play: drawn, or given.
pub enum Setup {
    Drawn(Draw),
    Given(String),
}

/// Plays games: the problem, our solver and the program, as a [`Trial`]
/// (our solver with its explain flag when that leaves its answer as it
/// is), and the rulebook.
pub struct Table<'a> {
    pub trial: Trial<'a>,
    pub rulebook: &'a Rulebook,
    /// Our solver without the explain flag.
    pub plain: &'a Cmd,
}

impl Table<'_> {
    /// Plays one game; `None` for a given input our solver does not
    /// answer (not a valid game, or one without an end).
    ///
    /// # Errors
    /// The errors of drawing a case and of starting either program.
    pub fn play(&self, setup: &Setup) -> Result<Option<Game>> {
        let t = &self.trial;
        let (profile, index, input, ours) = match setup {
            Setup::Drawn(d) => {
                let src = Source {
                    problem: t.problem,
                    profile: d.profile,
                    seed: d.seed,
                    solver: t.solver,
                };
                let drawn = src.draw(d.index)?;
                (d.profile, d.index, drawn.input, drawn.ours)
            }
            Setup::Given(input) => {
                let ours = t.answer(input)?;
                if !ours.success() {
                    return Ok(None);
                }
                ("near", 0, input.clone(), ours)
            }
        };
        let theirs = t.run_theirs(&input)?;
        let (answer, what) = match t.fault(&ours, &theirs) {
            None => (Answer::Agrees, String::new()),
            Some(f) if f.kind == Kind::Differs => (Answer::Wrong, f.what),
            Some(f) => (Answer::Failed(f.kind), f.what),
        };
        let book = self.rulebook;
        let explained_run =
            if book.one_run() { ours.clone() } else { book.explain(self.plain, &input)? };
        let exercised = book.exercised(&input, &explained_run)?;
        let fired = book.indices(&exercised);
        let explained = book.text(&explained_run);
        Ok(Some(Game {
            profile,
            index,
            input,
            ours,
            theirs,
            answer,
            what,
            exercised,
            fired,
            explained,
        }))
    }

    /// Plays `setups`, `jobs` at once: the games in the same order (those
    /// our solver does not answer left out), with a progress line.
    ///
    /// # Errors
    /// The first error of a game, in the order of `setups`.
    pub fn play_all(
        &self,
        setups: &[Setup],
        jobs: usize,
        what: &str,
        progress: &mut Progress,
    ) -> Result<Vec<Game>> {
        let next = AtomicUsize::new(0);
        let slots: Mutex<Vec<Option<Result<Option<Game>>>>> =
            Mutex::new((0..setups.len()).map(|_| None).collect());
        let done = AtomicUsize::new(0);
        let name = self.trial.problem.name();
        std::thread::scope(|scope| {
            for _ in 0..jobs.max(1) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= setups.len() {
                        break;
                    }
                    let result = self.play(&setups[i]);
                    slots.lock().expect("no worker panics")[i] = Some(result);
                    done.fetch_add(1, Ordering::SeqCst);
                });
            }
            loop {
                let n = done.load(Ordering::SeqCst);
                progress.tick(|| format!("diagnose {name}: {what}: {n}/{} games", setups.len()));
                if n == setups.len() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        });
        let mut games = Vec::new();
        for slot in slots.into_inner().expect("no worker panics") {
            if let Some(game) = slot.expect("every game played")? {
                games.push(game);
            }
        }
        Ok(games)
    }
}
