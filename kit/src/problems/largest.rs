//! A toy problem for the kit's own tests (test support, not in the
//! registry): `n` then `n` digits; the answer is the largest digit. Inputs
//! with n = 4 have no answer: its solver [`LARGEST`] exits 3 on them, as
//! ours do on a game that never ends.

use super::{Problem, Profile, Shrinkable};
use crate::rng::Rng;

/// The toy problem.
pub struct Largest;

impl Problem for Largest {
    fn name(&self) -> &'static str {
        "largest"
    }

    fn profiles(&self) -> &'static [Profile] {
        &[
            Profile {
                name: "random",
                about: "1 to 8 digits",
                generate: |rng| {
                    let n = rng.range(1, 8);
                    digits(rng, n)
                },
            },
            Profile {
                name: "four",
                about: "always 4 digits (never accepted)",
                generate: |rng| digits(rng, 4),
            },
        ]
    }

    fn shrink(&self, input: &str) -> Vec<String> {
        super::shrink::<Digits>(input)
    }
}

/// An input of the toy problem: its digits.
#[derive(Clone)]
struct Digits(Vec<u32>);

impl Shrinkable for Digits {
    const STEPS: &'static [fn(&Digits) -> Vec<Digits>] = &[fewer, smaller];

    fn parse(text: &str) -> Option<Digits> {
        text.split_whitespace().skip(1).map(|t| t.parse().ok()).collect::<Option<_>>().map(Digits)
    }

    fn render(&self) -> String {
        let words: Vec<String> = self.0.iter().map(u32::to_string).collect();
        format!("{}\n{}\n", self.0.len(), words.join(" "))
    }
}

/// One digit fewer, any of them (never none).
fn fewer(d: &Digits) -> Vec<Digits> {
    let n = if d.0.len() > 1 { d.0.len() } else { 0 };
    (0..n).map(|i| Digits([&d.0[..i], &d.0[i + 1..]].concat())).collect()
}

/// One digit one smaller, any of them.
fn smaller(d: &Digits) -> Vec<Digits> {
    let mut out = Vec::new();
    for i in (0..d.0.len()).filter(|&i| d.0[i] > 0) {
        let mut s = d.clone();
        s.0[i] -= 1;
        out.push(s);
    }
    out
}

fn digits(rng: &mut Rng, n: i64) -> String {
    let digits: Vec<String> = (0..n).map(|_| rng.range(0, 9).to_string()).collect();
    format!("{n}\n{}\n", digits.join(" "))
}

/// The toy problem's solver.
pub const LARGEST: &str = r#"read n; read xs
[ "$n" = 4 ] && { echo "largest: no answer for n = 4" >&2; exit 3; }
m=0; for x in $xs; do [ "$x" -gt "$m" ] && m=$x; done; echo "$m""#;
