//! What a person reads and types for each skill: its name as printed, its
//! English name (the common variant's skills), and its pinyin alias, an
//! ASCII word for a keyboard without Chinese input.

use crate::ji_english::english;
use crate::show::show;
use crate::variant::Variant;

/// The names of a variant's skills, by skill.
pub struct Names {
    /// The names exactly as the variant gives them (what `find` matches).
    exact: Vec<String>,
    /// Names as printed (`show`).
    pub labels: Vec<String>,
    /// ASCII names a person can type.
    pub aliases: Vec<Option<String>>,
    /// English names, for the skills of the common variant.
    pub english: Vec<Option<&'static str>>,
    /// The English names as typed (`squashed`), each kept only if it names
    /// no other skill's name or alias (so it never names two skills).
    typed_english: Vec<Option<String>>,
}

impl Names {
    pub fn new(variant: &Variant) -> Names {
        let exact: Vec<String> = variant.skills.iter().map(|s| s.name.clone()).collect();
        let aliases = aliases(variant);
        let english: Vec<Option<&'static str>> =
            (variant.skills.iter()).map(|s| english(&s.name)).collect();
        // Whether `word` (squashed) names a skill other than `me`.
        let taken = |word: &str, me: usize| {
            let other = |i: usize, name: Option<&str>| {
                i != me && name.map(squashed).as_deref() == Some(word)
            };
            (exact.iter().enumerate()).any(|(i, name)| other(i, Some(name)))
                || (aliases.iter().enumerate()).any(|(i, a)| other(i, a.as_deref()))
        };
        let typed_english = (english.iter().enumerate())
            .map(|(i, e)| e.map(squashed).filter(|word| !taken(word, i)))
            .collect();
        Names {
            labels: exact.iter().map(|name| show(name.as_bytes())).collect(),
            exact,
            aliases,
            english,
            typed_english,
        }
    }

    /// A skill as shown: its name, then its English name if it has one.
    pub fn named(&self, x: usize) -> String {
        match self.english[x] {
            Some(e) => format!("{} {e}", self.labels[x]),
            None => self.labels[x].clone(),
        }
    }

    /// A skill as offered: named, then its alias, the ASCII word to type.
    pub fn offered(&self, x: usize) -> String {
        match &self.aliases[x] {
            Some(a) => format!("{} ({a})", self.named(x)),
            None => self.named(x),
        }
    }

    /// The skill typed: an exact name first (a name `1` wins over the
    /// number 1), then an alias, then an English name, these two in any
    /// case and with or without spaces (`xiao bo`, `BigShield`).
    pub fn find(&self, word: &str) -> Option<usize> {
        let typed = squashed(word);
        let is_typed = |a: &Option<String>| a.as_deref().map(squashed).as_deref() == Some(&*typed);
        (self.exact.iter().position(|name| name == word))
            .or_else(|| self.exact.iter().position(|name| name == word.trim()))
            .or_else(|| self.aliases.iter().position(is_typed))
            .or_else(|| self.typed_english.iter().position(is_typed))
    }

    /// The shortest name a person reads: the English one if the skill has
    /// one (the result of a round names the skills this way).
    pub fn short(&self, x: usize) -> &str {
        self.english[x].unwrap_or(&self.labels[x])
    }
}

/// A typed word as matched against aliases and English names: ASCII
/// letters in lower case, white space left out.
fn squashed(word: &str) -> String {
    word.chars().filter(|c| !c.is_ascii_whitespace()).map(|c| c.to_ascii_lowercase()).collect()
}

/// Pinyin of the common variant's characters.
const PINYIN: &str = "集ji 小xiao 中zhong 大da 防fang 波bo 黑hei 洞dong";

/// Each skill's alias, its name in pinyin; none for a printable ASCII name,
/// a character outside the table (the number works), or a clash with a name
/// or another alias.
pub fn aliases(variant: &Variant) -> Vec<Option<String>> {
    let spell = |name: &str| -> Option<String> {
        if name.bytes().all(|b| b.is_ascii_graphic()) {
            return None;
        }
        let mut a = String::new();
        for c in name.chars() {
            match PINYIN.split(' ').find_map(|p| p.strip_prefix(c)) {
                Some(p) => a += p,
                None if c.is_ascii_alphanumeric() => a.push(c.to_ascii_lowercase()),
                None => return None,
            }
        }
        Some(a)
    };
    let spelled: Vec<Option<String>> = variant.skills.iter().map(|s| spell(&s.name)).collect();
    let clash = |a: &str, me: usize| {
        variant.skills.iter().any(|s| s.name.eq_ignore_ascii_case(a))
            || (spelled.iter().enumerate()).any(|(i, b)| i != me && b.as_deref() == Some(a))
    };
    let keep = |(i, a): (usize, &Option<String>)| a.clone().filter(|a| !clash(a, i));
    spelled.iter().enumerate().map(keep).collect()
}
