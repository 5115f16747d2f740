//! Where the cases of one stressed profile come from: one of our profiles
//! ([`Source`], the cases `kit gen` writes), or the user's own generator
//! (`--gen 'CMD {seed}'`, [`gen::Command`]). Either way case `i` is the
//! same bytes every time, and our solver has answered it.

use crate::error::Result;
use crate::gen::{self, Drawn, Source};
use crate::problems::Problem;
use crate::run::Cmd;

/// The name of the cases of a user's generator where a profile's goes.
pub const USER_GEN: &str = "gen";

/// Where one profile's cases come from.
pub enum Cases<'s> {
    /// One of our profiles.
    Ours(Source<'s>),
    /// The user's generator.
    Theirs(gen::Command<'s>),
}

impl<'s> Cases<'s> {
    /// The cases of `profile` (ours), or of the user's `generator` when
    /// there is one (the profile is then [`USER_GEN`]).
    pub fn new(
        problem: &'s dyn Problem,
        profile: &'s str,
        seed: u64,
        solver: &'s Cmd,
        generator: Option<&'s str>,
    ) -> Cases<'s> {
        match generator {
            Some(template) => Cases::Theirs(gen::Command { template, seed, solver }),
            None => Cases::Ours(Source { problem, profile, seed, solver }),
        }
    }

    /// Case `index`, with our solver's answer.
    ///
    /// # Errors
    /// The errors of [`crate::gen::Source::draw`] or [`crate::gen::Command::draw`].
    pub fn draw(&self, index: u64) -> Result<Drawn> {
        match self {
            Cases::Ours(src) => src.draw(index),
            Cases::Theirs(command) => command.draw(index),
        }
    }

    /// How to make case `index` again, for the report: the generator's
    /// command line.
    pub fn made_by(&self, index: u64, drawn: &Drawn) -> Option<String> {
        match self {
            Cases::Ours(_) => None,
            Cases::Theirs(command) => Some(command.line(index, drawn.rejected)),
        }
    }
}
