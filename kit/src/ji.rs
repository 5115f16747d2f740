//! 集 (波波攒) in kit's own words: the variant format's one reader (the
//! master src/shared/ji_variant.rs, which ji_referee, ji_solver and the
//! trainer read with too), the lasting effects as records, the lost sets
//! they make, a query's `lost` clause, and the English names of the common
//! variant's skills. The problems (`crate::problems::ji`) and the pages
//! (`crate::pages::ji`) both speak this vocabulary, so it sits below them.

/// The names the pages show beside the Chinese ones; `english` is the
/// trainer's lookup.
#[allow(dead_code)]
#[path = "../../src/shared/ji_english.rs"]
mod ji_english;

pub use ji_english::ENGLISH;

/// The 集 variant format: the master src/shared/ji_variant.rs. It reports
/// through `bad` and `bad_at` below and quotes tokens with the shared
/// `show`.
#[allow(dead_code)] // --strict and the name lookup are the programs'
#[path = "../../src/shared/ji_variant.rs"]
pub(crate) mod format;

#[path = "../../src/shared/show.rs"]
mod token_quote;
use token_quote::show;

/// The reader's refusal of a text: its line, and what is wrong there.
pub(crate) struct Failure(usize, String);

fn bad<T>(line: usize, what: String) -> Result<T, Failure> {
    Err(Failure(line, what))
}

/// --strict's refusals name a column too (kit reads without --strict).
fn bad_at<T>(line: usize, column: usize, what: String) -> Result<T, Failure> {
    bad(line, format!("column {column}: {what}"))
}

/// Reads the variant that opens a 集 input (its lasting effects too);
/// returns it with the lexer standing after it. Linear in the input.
///
/// # Errors
/// The reader's refusal, `line L: what`, as ji_referee words it.
pub(crate) fn read_variant(
    input: &[u8],
) -> Result<(format::Variant<'_>, format::Lexer<'_>), String> {
    let mut lx = format::Lexer::new(input);
    lx.lasting = true;
    match format::parse_variant(&mut lx) {
        Ok(v) => Ok((v, lx)),
        Err(Failure(line, what)) => Err(format!("line {line}: {what}")),
    }
}

/// A lasting effect as one record of the `lasting` section writes it:
/// when `skill` meets one of `met` in a round that goes on, the other side
/// loses `taken` (ids: input positions).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Effect {
    pub(crate) skill: usize,
    pub(crate) met: Vec<usize>,
    pub(crate) taken: Vec<usize>,
}

/// The records of the variant's `lasting` section. The reader keeps one
/// entry per (skill, met) pair: a record is a run of entries with one
/// skill and one taken list (two such records in a row read as one).
pub(crate) fn effects(v: &format::Variant<'_>) -> Vec<Effect> {
    let mut records: Vec<Effect> = Vec::new();
    for e in &v.lasting {
        let (skill, met) = (e.skill as usize, e.met as usize);
        let taken: Vec<usize> = e.taken.iter().map(|&z| z as usize).collect();
        match records.last_mut() {
            Some(last) if last.skill == skill && last.taken == taken => last.met.push(met),
            _ => records.push(Effect { skill, met: vec![met], taken }),
        }
    }
    records
}

/// The sets of skills one side can have lost to effects with these
/// `taken` lists (ascending ids): their unions, the empty set first, then
/// by size and ids. `None` past `most` sets. Cost: O(sets x effects x n).
pub(crate) fn lost_sets<'t>(
    taken: impl IntoIterator<Item = &'t [usize]>,
    most: usize,
) -> Option<Vec<Vec<usize>>> {
    let mut sets: Vec<Vec<usize>> = vec![Vec::new()];
    for taken in taken {
        for i in 0..sets.len() {
            let mut union = sets[i].clone();
            union.extend(taken);
            union.sort_unstable();
            union.dedup();
            if !sets.contains(&union) {
                if sets.len() == most {
                    return None;
                }
                sets.push(union);
            }
        }
    }
    sets.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
    Some(sets)
}

/// A query's losses as ji_solver reads them: ` lost i a_1 .. a_i j b_1 ..
/// b_j` after `x y`, or nothing when neither side has lost a skill.
pub(crate) fn lost_clause<S: AsRef<str>>(a: &[S], b: &[S]) -> String {
    if a.is_empty() && b.is_empty() {
        return String::new();
    }
    let mut s = String::from(" lost");
    for side in [a, b] {
        s.push_str(&format!(" {}", side.len()));
        for name in side {
            s.push(' ');
            s.push_str(name.as_ref());
        }
    }
    s
}
