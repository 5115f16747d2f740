//! Spectrum-based fault localization over the statement's rules: for each
//! rule, how many failing and passing games exercised it, and a score that
//! is high when the failures line up with the rule (fails where it fires,
//! passes where it does not). The formula is DStar (`*` = 2): ef² / (ep +
//! nf), which punishes a failing game where the rule does not fire (nf)
//! hardest: a single misread rule fires in every game it makes fail.
//! Ochiai breaks DStar's ties. (Ochiai alone was not measured against it
//! on the planted misreadings of tests/diagnose.rs.)

use std::cmp::Ordering;

/// One game as the spectrum sees it: whether the program failed it, and
/// which rules (by their index in the catalogue) our solver's run of it
/// exercised.
#[derive(Clone, Debug)]
pub struct Observed {
    pub failed: bool,
    /// Indices into the catalogue, ascending, each once.
    pub fired: Vec<usize>,
}

/// The four counts of one rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Failing games where the rule fires.
    pub fail_fired: u32,
    /// Failing games where it does not.
    pub fail_not: u32,
    /// Passing games where it fires.
    pub pass_fired: u32,
    /// Passing games where it does not.
    pub pass_not: u32,
}

impl Tally {
    /// DStar with `*` = 2; a rule that fires in every failing game and in
    /// no passing one scores infinity.
    pub fn dstar(&self) -> f64 {
        let ef = f64::from(self.fail_fired);
        let rest = f64::from(self.pass_fired) + f64::from(self.fail_not);
        if rest == 0.0 {
            if ef == 0.0 {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            ef * ef / rest
        }
    }

    /// Ochiai: ef / sqrt((ef + nf) (ef + ep)).
    pub fn ochiai(&self) -> f64 {
        let ef = f64::from(self.fail_fired);
        let failing = ef + f64::from(self.fail_not);
        let fired = ef + f64::from(self.pass_fired);
        if failing == 0.0 || fired == 0.0 {
            0.0
        } else {
            ef / (failing * fired).sqrt()
        }
    }

    /// The games where the rule fires.
    pub fn fired(&self) -> u32 {
        self.fail_fired + self.pass_fired
    }

    /// The games where it does not.
    pub fn not_fired(&self) -> u32 {
        self.fail_not + self.pass_not
    }
}

/// The tallies of the `rules` rules of the catalogue over `games`.
pub fn tally(games: &[Observed], rules: usize) -> Vec<Tally> {
    let mut tallies = vec![Tally::default(); rules];
    let failing = games.iter().filter(|g| g.failed).count() as u32;
    let passing = games.len() as u32 - failing;
    for game in games {
        for &r in &game.fired {
            if game.failed {
                tallies[r].fail_fired += 1;
            } else {
                tallies[r].pass_fired += 1;
            }
        }
    }
    for t in &mut tallies {
        t.fail_not = failing - t.fail_fired;
        t.pass_not = passing - t.pass_fired;
    }
    tallies
}

/// A rule's place in the ranking.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranked {
    /// Its index in the catalogue.
    pub rule: usize,
    /// 1 for the best; rules tied share the rank of the first of them
    /// (1, 1, 3, ...).
    pub rank: usize,
    pub tally: Tally,
    pub score: f64,
}

/// The rules that fired in some failing game, best first: by DStar, then
/// by Ochiai (which breaks the ties among DStar's infinities by how often
/// the rule fires in passing games). Rules with equal scores are tied: the
/// same rank, in catalogue order.
pub fn rank(tallies: &[Tally]) -> Vec<Ranked> {
    let key = |t: &Tally| (t.dstar(), t.ochiai());
    let mut ranked: Vec<Ranked> = tallies
        .iter()
        .enumerate()
        .filter(|(_, t)| t.fail_fired > 0)
        .map(|(rule, t)| Ranked { rule, rank: 0, tally: *t, score: t.dstar() })
        .collect();
    let order = |a: &Ranked, b: &Ranked| {
        let (ka, kb) = (key(&a.tally), key(&b.tally));
        kb.0.partial_cmp(&ka.0)
            .unwrap_or(Ordering::Equal)
            .then(kb.1.partial_cmp(&ka.1).unwrap_or(Ordering::Equal))
    };
    ranked.sort_by(|a, b| order(a, b).then(a.rule.cmp(&b.rule)));
    for i in 0..ranked.len() {
        ranked[i].rank = if i > 0 && order(&ranked[i - 1], &ranked[i]) == Ordering::Equal {
            ranked[i - 1].rank
        } else {
            i + 1
        };
    }
    ranked
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(failed: bool, fired: &[usize]) -> Observed {
        Observed { failed, fired: fired.to_vec() }
    }

    #[test]
    fn the_rule_that_fires_in_every_failure_and_fewest_passes_ranks_first() {
        // Rule 0 fires everywhere; rule 1 in every failure and one pass;
        // rule 2 in half of the failures.
        let games = [
            game(true, &[0, 1, 2]),
            game(true, &[0, 1]),
            game(false, &[0, 1]),
            game(false, &[0, 2]),
            game(false, &[0]),
        ];
        let t = tally(&games, 4);
        assert_eq!(t[1], Tally { fail_fired: 2, fail_not: 0, pass_fired: 1, pass_not: 2 });
        let ranked = rank(&t);
        let order: Vec<usize> = ranked.iter().map(|r| r.rule).collect();
        assert_eq!(order, [1, 0, 2], "rule 3 never fires in a failure: not ranked");
        assert_eq!(ranked.iter().map(|r| r.rank).collect::<Vec<_>>(), [1, 2, 3]);
    }

    #[test]
    fn equal_evidence_is_a_tie() {
        let games = [game(true, &[0, 1]), game(false, &[2])];
        let ranked = rank(&tally(&games, 3));
        assert_eq!(ranked.len(), 2);
        assert_eq!((ranked[0].rank, ranked[1].rank), (1, 1));
        assert_eq!((ranked[0].rule, ranked[1].rule), (0, 1));
        assert_eq!(ranked[0].score, f64::INFINITY);
    }
}
