//! The English names of the common 集 variant's skills, beside the Chinese
//! one wherever a skill is named (a person who does not read Chinese can
//! still follow a game): the trainer's screens and kit's game pages both
//! import this module. A skill of another name has none and is shown as
//! given.

pub const ENGLISH: [(&str, &str); 8] = [
    ("集", "charge"),
    ("小防", "small shield"),
    ("中防", "medium shield"),
    ("大防", "big shield"),
    ("小波", "small wave"),
    ("中波", "medium wave"),
    ("大波", "big wave"),
    ("黑洞", "black hole"),
];

/// The English name of the skill called `name`, if it has one.
pub fn english(name: &str) -> Option<&'static str> {
    ENGLISH.iter().find(|e| e.0 == name).map(|e| e.1)
}
