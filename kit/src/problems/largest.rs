//! A toy problem for the kit's own tests (test support, not in the
//! registry): `n` then `n` digits; the answer is the largest digit. Inputs
//! with n = 4 have no answer: its solver [`LARGEST`] exits 3 on them, as
//! ours do on a game that never ends.

use super::{Problem, Profile};
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
        let digits: Vec<u32> =
            input.split_whitespace().skip(1).map(|t| t.parse().expect("a digit")).collect();
        let show = |d: &[u32]| {
            let words: Vec<String> = d.iter().map(u32::to_string).collect();
            format!("{}\n{}\n", d.len(), words.join(" "))
        };
        let mut out = Vec::new();
        for i in 0..digits.len() {
            if digits.len() > 1 {
                let mut fewer = digits.clone();
                fewer.remove(i);
                out.push(show(&fewer));
            }
        }
        for i in 0..digits.len() {
            if digits[i] > 0 {
                let mut smaller = digits.clone();
                smaller[i] -= 1;
                out.push(show(&smaller));
            }
        }
        out
    }
}

fn digits(rng: &mut Rng, n: i64) -> String {
    let digits: Vec<String> = (0..n).map(|_| rng.range(0, 9).to_string()).collect();
    format!("{n}\n{}\n", digits.join(" "))
}

/// The toy problem's solver.
pub const LARGEST: &str = r#"read n; read xs
[ "$n" = 4 ] && { echo "largest: no answer for n = 4" >&2; exit 3; }
m=0; for x in $xs; do [ "$x" -gt "$m" ] && m=$x; done; echo "$m""#;
