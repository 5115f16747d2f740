//! The session: the commands a person types (train, play, rules, show,
//! eval, help, quit), a game against the AI, and what each one prints.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use crate::archive::{archive_text, parse_archive, save_archive, Archive};
use crate::eval::{equilibrium, exact_best_response, outcomes};
use crate::failure::{unreadable_file, Failure};
use crate::model::Model;
use crate::rng::Rng;
use crate::screen::{listed, progress, rules, width, COLUMNS};
use crate::show::show;
use crate::train::{Trainer, POPULATION};
use crate::variant::{bits, read_variant, Losses, Variant};

/// The commands, as `h` and `--help` list them.
pub const COMMANDS: &str = "commands, one per line (a letter or its word):
  t, train [G]  train G generations (default 3000), save the archive
  p, play       play a game against the AI (Ctrl-D or q ends the game)
  p best        play against the best strategy (an equilibrium)
  r, rules      the rules of the variant
  s, show       the AI's table: P(skill) per state (own 集, other's 集)
  e, eval       exact evaluation of the AI from (0, 0), exploitability
  h, help       this list
  q, quit       quit (so does Ctrl-D)
";

/// The session's settings, one field per command-line option (`main`
/// reads them).
#[derive(Debug, PartialEq, Eq)]
pub struct Options {
    /// `--variant FILE`: the variant (default: the common variant).
    pub variant: Option<PathBuf>,
    /// `--archive FILE`: the population archive.
    pub archive: PathBuf,
    /// `--seed N`: the generator's seed (default: the clock).
    pub seed: Option<u64>,
}

impl Default for Options {
    fn default() -> Options {
        Options { variant: None, archive: PathBuf::from("archive"), seed: None }
    }
}

/// `t` without a count: about 7 s of CPU on the 2-core development VM
/// (bench/ji.sh), and enough to pass the 0.02 exploitability goal on the
/// common variant.
const DEFAULT_GENERATIONS: u64 = 3000;
/// The largest count `t` accepts, so that a typo cannot train for hours.
const MAX_GENERATIONS: u64 = 100_000;
/// Progress reports per `t` (one line each when stdout is not a terminal).
const REPORTS: u64 = 60;
/// Added to the seed for the AI's moves in `p` (the bytes of "piay").
const PLAY_STREAM: u64 = 0x7069_6179;

/// How to move, at the start of a game and on `h` in one.
pub const MOVE_HELP: &str =
    "type a skill's number, name, English name or alias; r: the rules, q: give up";

/// Why `p` and `t` do nothing in a variant without a req-0 skill.
const NOTHING_TO_PLAY: &str = "no skill needs 0 集, so neither side can move at 0 集";

/// Which ends of the session are a terminal: prompts go to a person who
/// types (`input`); progress is redrawn in place (`output`).
#[derive(Clone, Copy)]
pub struct Terminal {
    pub input: bool,
    pub output: bool,
}

/// A session: the model, its equilibrium, the population, and what the
/// person has seen.
pub struct Session {
    pub model: Model,
    /// The equilibrium's values (mover's view) and policy.
    value: Vec<f64>,
    pub eq_policy: Vec<f64>,
    pub trainer: Trainer,
    archive: PathBuf,
    play_rng: Rng,
    /// The rules are shown once per run, at the first `p` (and on `r`).
    rules_shown: bool,
}

pub type Done = Result<(), Failure>;

impl Session {
    /// Reads the archive or draws a population; prints the first screen.
    pub fn new(
        variant: Variant,
        options: &Options,
        out: &mut impl Write,
    ) -> Result<Session, Failure> {
        let model = Model::new(variant);
        let (value, eq_policy) = equilibrium(&model);
        // Without --seed, the clock: a person should not meet the same AI
        // moves in every session. Tests always pass --seed.
        let seed = options.seed.unwrap_or_else(|| {
            let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            t.map_or(0, |d| d.as_nanos() as u64)
        });
        let name = options.archive.display().to_string();
        let (archive, note) = match std::fs::read(&options.archive) {
            Ok(bytes) => {
                let a = parse_archive(&bytes, &name, &model)?;
                let (g, size) = (a.generation, a.population.len());
                (a, format!("archive '{name}': generation {g}, population {size}"))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let a = Archive {
                    generation: 0,
                    rng: Rng::new(seed),
                    population: Trainer::fresh(&model, seed),
                };
                let note =
                    format!("no archive '{name}': a fresh random population of {POPULATION}");
                (a, note)
            }
            Err(e) => return Err(unreadable_file("--archive", &name, e)),
        };
        let generation = archive.generation;
        let trainer = Trainer::new(&model, &value, archive.population, generation, archive.rng);
        writeln!(out, "variant: {} skills; {}\n{note}", model.n, table(&model))?;
        let trained = match generation {
            0 => "the AI is untrained (generation 0)".to_string(),
            g => format!("the AI is trained: generation {g}"),
        };
        let exploitability = trainer.pop[0].exploitability.max(0.0);
        writeln!(out, "{trained}; exploitability {exploitability:.6} (0 is unbeatable)")?;
        let next = if model.afford[0] == 0 {
            format!("nothing to play or train: {NOTHING_TO_PLAY}\nr shows the rules, h lists the commands")
        } else {
            "type t to train the AI, p to play against it, r for the rules, h for help".into()
        };
        writeln!(out, "{next}")?;
        Ok(Session {
            trainer,
            model,
            value,
            eq_policy,
            archive: options.archive.clone(),
            play_rng: Rng::new(seed.wrapping_add(PLAY_STREAM)),
            rules_shown: false,
        })
    }

    /// The AI that plays: the best of the population (`Trainer.pop[0]`).
    fn best(&self) -> Vec<f64> {
        self.model.policy(&self.trainer.pop[0].genes)
    }

    /// `t G`: trains, reports progress, saves the archive. On a terminal
    /// the progress is one line redrawn in place (with the time left, an
    /// estimate from the clock that only a person sees); otherwise a line
    /// per report, the same bytes on every machine.
    fn train(&mut self, gens: u64, out: &mut impl Write, terminal: Terminal) -> Done {
        if self.model.afford[0] == 0 {
            writeln!(out, "nothing to train: {NOTHING_TO_PLAY}")?;
            return Ok(());
        }
        writeln!(
            out,
            "training {gens} generations; fitness = -(exploitability + the mean, over\n\
             the states, of what a best reply gains there): 0 is unbeatable"
        )?;
        let started = std::time::Instant::now();
        let mut drawn = started;
        let every = (gens + REPORTS - 1) / REPORTS;
        for i in 1..=gens {
            self.trainer.step(&self.model, &self.value);
            let (g, best) = (self.trainer.generation, &self.trainer.pop[0]);
            let (fitness, exploitability) = (best.fitness, best.exploitability.max(0.0));
            let report = format!(
                "generation {g}: best fitness {fitness:.6}, exploitability {exploitability:.6}"
            );
            if !terminal.output {
                if i % every == 0 || i == gens {
                    writeln!(out, "{report}")?;
                }
            } else if i == gens {
                writeln!(out, "\r\x1b[K{report}")?;
            } else if drawn.elapsed().as_millis() >= 100 {
                drawn = std::time::Instant::now();
                let per = started.elapsed().as_secs_f64() / i as f64;
                let left = (per * (gens - i) as f64).ceil() as u64;
                write!(out, "\r\x1b[K{}", progress(i, gens, fitness, exploitability, left))?;
                out.flush()?;
            }
        }
        let name = self.archive.display();
        match save_archive(&self.archive, &archive_text(&self.model, &self.trainer)) {
            Ok(()) => writeln!(out, "saved '{name}'")?,
            Err(e) => {
                // Not fatal: the previous archive is intact, training may go on.
                let _ = writeln!(io::stderr(), "ji: {name}: cannot save the archive: {e}");
                writeln!(out, "archive NOT saved: {e}")?
            }
        }
        Ok(())
    }

    /// `s`: the best AI's table, a column per skill where they fit 80
    /// columns (the English names under the Chinese ones), else a line per
    /// state.
    fn show(&self, out: &mut impl Write) -> Done {
        let (model, p, g) = (&self.model, self.best(), self.trainer.generation);
        let lasting = model.variant.lasting();
        writeln!(out, "best AI, generation {g}: P(skill) per state (own 集, opponent 集)")?;
        if lasting {
            writeln!(out, "and the skills each side has lost (own / opponent's)")?;
        }
        let state = |s: usize| {
            let (a, b) = model.counts(s);
            let lost = model.lost(s);
            match lasting {
                true => {
                    let (own, opp) = (lost_list(model, lost.own), lost_list(model, lost.opp));
                    format!("({a}, {b}, {own} / {opp})")
                }
                false => format!("({a}, {b})"),
            }
        };
        let first = (0..model.states).map(|s| width(&state(s))).max().unwrap_or(0) + 2;
        let english = |x: usize| model.names.english[x].unwrap_or("");
        let col = (0..model.n)
            .map(|x| {
                width(&model.names.labels[x])
                    .max(english(x).split(' ').map(width).max().unwrap_or(0))
            })
            .fold(6, usize::max)
            + 2;
        if first + model.n * col > COLUMNS {
            for s in 0..model.states {
                let cells: Vec<String> = (bits(model.playable[s]))
                    .map(|x| format!("{} {:.4}", model.names.named(x), p[s * model.n + x]))
                    .collect();
                writeln!(out, "{}: {}", state(s), cells.join(", "))?;
            }
            return Ok(());
        }
        let pad = |text: &str, w: usize| text.to_string() + &" ".repeat(w - width(text));
        let mut header = vec![pad("state", first)];
        let rows = (0..model.n).map(|x| english(x).split(' ').count()).max().unwrap_or(0);
        for x in 0..model.n {
            header[0] += &pad(&model.names.labels[x], col);
        }
        for r in 0..rows {
            let mut line = " ".repeat(first);
            for x in 0..model.n {
                line += &pad(english(x).split(' ').nth(r).unwrap_or(""), col);
            }
            if !line.trim().is_empty() {
                header.push(line);
            }
        }
        for line in header {
            writeln!(out, "{}", line.trim_end())?;
        }
        for s in 0..model.states {
            let mut line = pad(&state(s), first);
            for x in 0..model.n {
                let cell = match model.playable[s] >> x & 1 {
                    1 => format!("{:.4}", p[s * model.n + x]),
                    _ => "-".into(),
                };
                line += &pad(&cell, col);
            }
            writeln!(out, "{}", line.trim_end())?;
        }
        Ok(())
    }

    /// `e`: outcomes against two references, and exploitabilities, all by
    /// direct linear solves (`outcomes`, `exact_best_response`).
    fn evaluate(&self, out: &mut impl Write) -> Done {
        let (model, ai, eq) = (&self.model, self.best(), &self.eq_policy);
        let uniform = model.policy(&vec![1.0; model.genes()]);
        let g = self.trainer.generation;
        writeln!(out, "exact evaluation of the best AI (generation {g}) from (0, 0):")?;
        // The game is symmetric, so its value is 0; the equilibrium's
        // value iteration agrees up to its tolerance.
        writeln!(out, "game value at (0, 0): {:.6}", self.value[0].abs())?;
        for (name, opp) in [("uniform AI", &uniform), ("equilibrium", eq)] {
            let o = outcomes(model, &ai, opp);
            let (w, l, d) = (o.win, o.lose, o.draw);
            writeln!(out, "vs {name}: P(win) {w:.6}, P(lose) {l:.6}, P(draw) {d:.6}")?;
        }
        let refs = [("uniform AI's ", &uniform), ("equilibrium's ", eq), ("", &ai)];
        for (name, policy) in refs {
            let br = exact_best_response(model, policy);
            writeln!(out, "{name}exploitability: {:.6}", (br[0] - self.value[0]).max(0.0))?;
        }
        Ok(())
    }

    /// `r`: the rules.
    fn rules(&mut self, out: &mut impl Write) -> Done {
        self.rules_shown = true;
        write!(out, "{}", rules(&self.model))?;
        Ok(())
    }

    /// `p`: a game against the best AI (`p best`: the equilibrium) with
    /// real (uncapped) counts; the end of input (Ctrl-D) ends the game, not
    /// the session.
    fn play(
        &mut self,
        opponent: Opponent,
        input: &mut impl BufRead,
        out: &mut impl Write,
        terminal: Terminal,
    ) -> Done {
        if self.model.afford[0] == 0 {
            writeln!(out, "nothing to play: {NOTHING_TO_PLAY}")?;
            return Ok(());
        }
        if !self.rules_shown {
            self.rules(out)?;
        }
        let model = &self.model;
        let g = self.trainer.generation;
        let (ai, who) = match opponent {
            Opponent::Trained => (self.best(), format!("the AI (generation {g})")),
            Opponent::Best => (self.eq_policy.clone(), "the best strategy".to_string()),
        };
        // The game is symmetric, so its value is 0: what best play gets.
        let value = self.value[0].abs();
        writeln!(out, "new game against {who}")?;
        writeln!(out, "the game's value is {value:.6}: with best play, neither side has an edge")?;
        writeln!(out, "{MOVE_HELP}")?;
        let (mut me, mut bot, mut round) = (0i64, 0i64, 0u64);
        // What each side has lost to lasting effects, from your side.
        let mut lost = Losses::NONE;
        let summary = loop {
            round += 1;
            let mine: Vec<usize> = (0..model.n)
                .filter(|&x| model.variant.skills[x].req <= me && lost.own >> x & 1 == 0)
                .collect();
            let menu: Vec<String> = (mine.iter().enumerate())
                .map(|(i, &x)| format!("{} {}", i + 1, model.names.offered(x)))
                .collect();
            let losses = match model.variant.lasting() {
                true => format!(
                    "; lost: you {}, AI {}",
                    lost_list(model, lost.own),
                    lost_list(model, lost.opp)
                ),
                false => String::new(),
            };
            let head = format!("round {round}: you {me} 集, AI {bot} 集{losses}; you may play:");
            writeln!(out, "{}", listed(&head, &menu))?;
            let x = match read_move(model, &mine, me, lost.own, input, out, terminal.input)? {
                Some(Move::Play(x)) => x,
                Some(Move::GiveUp) => break format!("you gave up in round {round}: the AI wins"),
                None => break format!("game abandoned in round {round} (end of input): no winner"),
            };
            let y = model.ai_move(&ai, bot, me, lost.swapped(), &mut self.play_rng);
            writeln!(out, "{}", round_report(model, x, y))?;
            if model.beats(x, y) || model.beats(y, x) {
                let winner = if model.beats(x, y) { "you win" } else { "the AI wins" };
                let rounds = if round == 1 { "round" } else { "rounds" };
                break format!("game over after {round} {rounds}: {winner}");
            }
            me = me.saturating_add(model.variant.skills[x].delta);
            bot = bot.saturating_add(model.variant.skills[y].delta);
            // Lasting effects: both of the round's at once, after the deltas.
            let (yours, theirs) =
                (model.variant.takes(y, x) & !lost.own, model.variant.takes(x, y) & !lost.opp);
            lost = Losses { own: lost.own | yours, opp: lost.opp | theirs };
            for (taken, who) in [(yours, "you lose"), (theirs, "the AI loses")] {
                if taken != 0 {
                    let what = lost_list(model, taken);
                    writeln!(out, "lasting: {who} {what} for the rest of the game")?;
                }
            }
        };
        writeln!(out, "{summary}. p plays again, h for help")?;
        Ok(())
    }
}

/// What a round says: both moves, then who won and why, naming the skills
/// in English where they have English names; the result goes on a line of
/// its own where one line would not fit 80 columns.
pub fn round_report(model: &Model, x: usize, y: usize) -> String {
    let names = &model.names;
    let (mine, theirs) = (names.short(x), names.short(y));
    let result = if model.beats(x, y) {
        format!("you win ({mine} beats {theirs})")
    } else if model.beats(y, x) {
        format!("the AI wins ({theirs} beats {mine})")
    } else {
        "neither beats the other: go on".to_string()
    };
    let moves = format!("you: {}, AI: {}", names.named(x), names.named(y));
    let line = format!("{moves} -> {result}");
    match width(&line) <= COLUMNS {
        true => line,
        false => format!("{moves}\n  -> {result}"),
    }
}

/// The AI's table in words, for the first screen: its states are the two
/// counts of 集, each capped at C (the most any skill needs), and in a
/// variant with lasting effects each side's lost skills.
fn table(model: &Model) -> String {
    let pairs = match model.losses.len() {
        _ if !model.variant.lasting() => String::new(),
        1 => ", 1 pair of lost sets".to_string(),
        p => format!(", {p} pairs of lost sets"),
    };
    match (model.states, model.cap) {
        (1, _) => "the AI's table: 1 state (集 makes no difference)".to_string(),
        (states, 0) => format!("the AI's table: {states} states (集 makes no difference){pairs}"),
        (states, cap) => {
            format!("the AI's table: {states} states, each side's 集 0 to {cap} (or more){pairs}")
        }
    }
}

/// A set of skills as the play screen names them (as the rules table's
/// "beats" column does), or `none`.
pub fn lost_list(model: &Model, set: u64) -> String {
    match set {
        0 => "none".to_string(),
        _ => bits(set).map(|x| &*model.names.labels[x]).collect::<Vec<_>>().join(" "),
    }
}

/// Whom `p` plays against.
#[derive(Clone, Copy)]
pub enum Opponent {
    /// The best of the population (`p`).
    Trained,
    /// The equilibrium strategy of the capped game, computed by ji itself
    /// (`p best`): no one can beat it on average.
    Best,
}

/// A move typed in a game (`None`: the end of input).
pub enum Move {
    Play(usize),
    GiveUp,
}

/// Reads a move, a line per attempt: a skill's name or alias, `q`, `r`,
/// `h`, then a number in `mine` (the list on screen). A skill in `lost`
/// (taken by a lasting effect) is refused as one you cannot afford is.
pub fn read_move(
    model: &Model,
    mine: &[usize],
    me: i64,
    lost: u64,
    input: &mut impl BufRead,
    out: &mut impl Write,
    prompt: bool,
) -> Result<Option<Move>, Failure> {
    while let Some(line) = ask(input, out, prompt.then_some("your skill> "))? {
        let word = trim(&line);
        let (text, typed) = (std::str::from_utf8(word).unwrap_or(""), show(word));
        let why = match (model.names.find(text), Action::parse(word)) {
            _ if word.is_empty() => continue,
            (Some(x), _) if lost >> x & 1 == 1 => {
                format!("{} is lost: a lasting effect took it", model.names.named(x))
            }
            (Some(x), _) if model.variant.skills[x].req <= me => return Ok(Some(Move::Play(x))),
            (Some(x), _) => format!(
                "{} needs {} 集, you have {me}",
                model.names.named(x),
                model.variant.skills[x].req
            ),
            (None, Some(Action::Quit)) => return Ok(Some(Move::GiveUp)),
            (None, Some(Action::Rules)) => {
                write!(out, "{}", rules(model))?;
                continue;
            }
            (None, Some(Action::Help)) => {
                writeln!(out, "{MOVE_HELP}")?;
                continue;
            }
            _ if word.iter().all(u8::is_ascii_digit) => match text.parse::<usize>() {
                Ok(k) if (1..=mine.len()).contains(&k) => return Ok(Some(Move::Play(mine[k - 1]))),
                _ => format!("{typed} is not a number in the list (1 to {})", mine.len()),
            },
            _ => format!("'{typed}' is not a skill, an alias or a number in the list"),
        };
        writeln!(out, "refused: {why}; try again")?;
    }
    Ok(None)
}

/// A line without ASCII white space at its ends.
pub fn trim(line: &[u8]) -> &[u8] {
    let text = |b: &u8| !b.is_ascii_whitespace();
    let start = line.iter().position(text).unwrap_or(line.len());
    let end = line.iter().rposition(text).map_or(start, |e| e + 1);
    &line[start..end]
}

/// Prints `prompt` (on a terminal) and reads a line; `None` at the end of
/// input, after which a terminal reads on (Ctrl-D) and gets a newline.
pub fn ask(
    input: &mut impl BufRead,
    out: &mut impl Write,
    prompt: Option<&str>,
) -> Result<Option<Vec<u8>>, Failure> {
    if let Some(prompt) = prompt {
        write!(out, "{prompt}")?;
    }
    out.flush()?;
    let mut line = Vec::new();
    match input.read_until(b'\n', &mut line) {
        Ok(0) => {
            if prompt.is_some() {
                writeln!(out)?;
            }
            Ok(None)
        }
        Ok(_) => Ok(Some(line)),
        Err(e) => Err(Failure::UnreadableInput(e.to_string())),
    }
}

/// A command of the session (an `Action`, not to be confused with the
/// command line's `Command`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Train,
    Play,
    Rules,
    Show,
    Eval,
    Help,
    Quit,
}

impl Action {
    /// Each action's word; its first letter is its short form.
    const WORDS: [(Action, &'static str); 7] = [
        (Action::Train, "train"),
        (Action::Play, "play"),
        (Action::Rules, "rules"),
        (Action::Show, "show"),
        (Action::Eval, "eval"),
        (Action::Help, "help"),
        (Action::Quit, "quit"),
    ];

    /// The action of a letter or a word. Lower case only: a stray `T` is
    /// not 3000 generations of training.
    pub fn parse(word: &[u8]) -> Option<Action> {
        let found = (Action::WORDS.iter())
            .find(|(_, w)| word == w.as_bytes() || word == &w.as_bytes()[..1]);
        found.map(|&(action, _)| action)
    }
}

/// A session: commands from `input` until `q` or its end.
pub fn run(
    options: &Options,
    input: &mut impl BufRead,
    out: &mut impl Write,
    terminal: Terminal,
) -> Done {
    let mut session = Session::new(read_variant(options.variant.as_deref())?, options, out)?;
    serve(&mut session, input, out, terminal)
}

pub fn serve(
    session: &mut Session,
    input: &mut impl BufRead,
    out: &mut impl Write,
    terminal: Terminal,
) -> Done {
    while let Some(line) = ask(input, out, terminal.input.then_some("ji> "))? {
        let words: Vec<&[u8]> =
            (line.split(u8::is_ascii_whitespace)).filter(|w| !w.is_empty()).collect();
        let Some(&first) = words.first() else {
            continue;
        };
        let word = show(first);
        match (Action::parse(first), words.len()) {
            (None, _) => writeln!(out, "unknown command '{word}'; h lists the commands")?,
            (Some(Action::Train), 1) => session.train(DEFAULT_GENERATIONS, out, terminal)?,
            (Some(Action::Train), 2) => {
                match std::str::from_utf8(words[1]).map(|g| g.parse::<u64>()) {
                    Ok(Ok(g)) if (1..=MAX_GENERATIONS).contains(&g) => {
                        session.train(g, out, terminal)?
                    }
                    _ => writeln!(out, "t: G must be an integer 1..={MAX_GENERATIONS}")?,
                }
            }
            (Some(Action::Train), _) => writeln!(out, "t takes at most one number: t [G]")?,
            (Some(Action::Play), 2) if words[1] == b"best" => {
                session.play(Opponent::Best, input, out, terminal)?
            }
            (Some(Action::Play), 2..) => writeln!(out, "p takes nothing or best: p [best]")?,
            (Some(_), 2..) => writeln!(out, "'{word}' takes no argument; h lists the commands")?,
            (Some(Action::Play), _) => session.play(Opponent::Trained, input, out, terminal)?,
            (Some(Action::Rules), _) => session.rules(out)?,
            (Some(Action::Show), _) => session.show(out)?,
            (Some(Action::Eval), _) => session.evaluate(out)?,
            (Some(Action::Help), _) => write!(out, "{COMMANDS}")?,
            (Some(Action::Quit), _) => return Ok(()),
        }
    }
    Ok(())
}
