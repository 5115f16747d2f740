//! What a person reads and types for each skill: its name as printed, its
//! English name (the common variant's skills), and its pinyin alias, an
//! ASCII word for a keyboard without Chinese input.

use crate::screen::shown;
use crate::variant::Variant;

/// The names of a variant's skills, by skill.
pub struct Names {
    /// The names exactly as the variant gives them (what `find` matches).
    exact: Vec<String>,
    /// Names as printed (`shown`).
    pub labels: Vec<String>,
    /// ASCII names a person can type.
    pub aliases: Vec<Option<String>>,
    /// English names, for the skills of the common variant.
    pub english: Vec<Option<&'static str>>,
}

impl Names {
    pub fn new(variant: &Variant) -> Names {
        Names {
            exact: variant.skills.iter().map(|s| s.name.clone()).collect(),
            labels: variant.skills.iter().map(|s| shown(s.name.as_bytes())).collect(),
            aliases: aliases(variant),
            english: (variant.skills.iter()).map(|s| english(&s.name)).collect(),
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
    /// number 1), then an alias (any case).
    pub fn find(&self, word: &str) -> Option<usize> {
        let alias = |a: &Option<String>| a.as_deref().is_some_and(|a| a.eq_ignore_ascii_case(word));
        (self.exact.iter().position(|name| name == word))
            .or_else(|| self.exact.iter().position(|name| name == word.trim()))
            .or_else(|| self.aliases.iter().position(alias))
    }
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

/// English names of the common variant's skills, beside the Chinese one
/// wherever a skill is named (a person who does not read Chinese can
/// still follow a game).
const ENGLISH: [(&str, &str); 8] = [
    ("集", "charge"),
    ("小防", "small shield"),
    ("中防", "medium shield"),
    ("大防", "big shield"),
    ("小波", "small wave"),
    ("中波", "medium wave"),
    ("大波", "big wave"),
    ("黑洞", "black hole"),
];

pub fn english(name: &str) -> Option<&'static str> {
    ENGLISH.iter().find(|e| e.0 == name).map(|e| e.1)
}
