//! The judge's comparison rule, the one `cargo test` applies to our
//! fixtures and `kit judge` / `kit stress` apply to any program: CRLF equals
//! LF, trailing spaces on a line and trailing blank lines are ignored, and
//! `ji_solver`'s numbers may differ by 1e-6 (absolute).

use std::fmt::Write as _;

/// Output lines under the usual judge rule: CRLF equals LF, trailing
/// spaces on a line and trailing blank lines are ignored.
pub fn judge_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.split('\n').map(str::trim_end).collect();
    while lines.last() == Some(&"") {
        lines.pop();
    }
    lines
}

/// How one problem's stdout is compared with the expected answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rule {
    /// Token for token, after the judge's line normalisation.
    Exact,
    /// Numbers may differ by this much (absolute); other tokens exactly.
    Tolerance(f64),
}

/// Where the first difference is: 0-based line, with a reason that names
/// the token (`token 2: expected `b`, got `x``).
#[derive(Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub line: usize,
    pub detail: String,
}

/// Compares `actual` with `expected` under `rule`; `None` when they agree.
///
/// Linear in the two texts.
pub fn compare(expected: &str, actual: &str, rule: Rule) -> Option<Mismatch> {
    let (exp, act) = (judge_lines(expected), judge_lines(actual));
    for i in 0..exp.len().max(act.len()) {
        let (e, a) = match (exp.get(i), act.get(i)) {
            (Some(e), Some(a)) => (*e, *a),
            (Some(_), None) => {
                return Some(Mismatch {
                    line: i,
                    detail: format!(
                        "output ends after {}, {} expected",
                        lines(act.len()),
                        exp.len()
                    ),
                })
            }
            (None, _) => {
                return Some(Mismatch {
                    line: i,
                    detail: format!("{}, only {} expected", lines(act.len()), exp.len()),
                })
            }
        };
        if let Some(detail) = compare_line(e, a, rule) {
            return Some(Mismatch { line: i, detail });
        }
    }
    None
}

/// `1 line`, `2 lines`.
fn lines(n: usize) -> String {
    if n == 1 {
        "1 line".to_string()
    } else {
        format!("{n} lines")
    }
}

fn compare_line(expected: &str, actual: &str, rule: Rule) -> Option<String> {
    if expected == actual {
        return None;
    }
    let tolerance = match rule {
        Rule::Exact => None,
        Rule::Tolerance(t) => Some(t),
    };
    let (mut exp, mut act) = (expected.split_whitespace(), actual.split_whitespace());
    for k in 1.. {
        match (exp.next(), act.next()) {
            (None, None) => break,
            (Some(e), Some(a)) => {
                let close = match (tolerance, e.parse::<f64>(), a.parse::<f64>()) {
                    (Some(t), Ok(x), Ok(y)) => (x - y).abs() <= t,
                    _ => e == a,
                };
                if !close {
                    let (e, a) = (clip(e, TOKEN_MAX), clip(a, TOKEN_MAX));
                    return Some(format!("token {k}: expected `{e}`, got `{a}`"));
                }
            }
            (Some(e), None) => {
                return Some(format!("token {k}: expected `{}`, line ends", clip(e, TOKEN_MAX)))
            }
            (None, Some(a)) => {
                return Some(format!("token {k}: unexpected `{}`", clip(a, TOKEN_MAX)))
            }
        }
    }
    // Same tokens: only the spacing differs, which a judge does not forgive
    // for exact outputs.
    match rule {
        Rule::Exact => Some("same tokens, different spacing".to_string()),
        Rule::Tolerance(_) => None,
    }
}

/// A few lines of context around line `at` of both texts: `-` expected,
/// `+` actual, `>` on the differing line.
///
/// Linear in the two texts.
pub fn context(expected: &str, actual: &str, at: usize) -> String {
    let (exp, act) = (judge_lines(expected), judge_lines(actual));
    let from = at.saturating_sub(2);
    let to = (at + 3).min(exp.len().max(act.len()));
    let mut s = String::new();
    for i in from..to {
        let mark = if i == at { ">" } else { " " };
        let e = exp.get(i).copied().unwrap_or("<none>");
        let a = act.get(i).copied().unwrap_or("<none>");
        if e == a {
            let _ = writeln!(s, "  {mark} {:>4}   {}", i + 1, clip(e, LINE_MAX));
        } else {
            let _ = writeln!(s, "  {mark} {:>4} - {}", i + 1, clip(e, LINE_MAX));
            let _ = writeln!(s, "  {mark} {:>4} + {}", i + 1, clip(a, LINE_MAX));
        }
    }
    s
}

/// The most characters of a line, and of a token, a message shows (as
/// testlib cuts its messages); what is longer is cut, its length said.
const LINE_MAX: usize = 160;
const TOKEN_MAX: usize = 64;

fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let head: String = text.chars().take(max).collect();
        format!("{head}... ({} chars)", text.chars().count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_and_trailing_space_and_blank_lines_are_forgiven() {
        assert!(compare("MP\nK D\n\n", "MP \r\nK D\r\n\r\n\r\n", Rule::Exact).is_none());
    }

    #[test]
    fn an_empty_line_in_the_middle_counts() {
        let m = compare("FP\n\nK\n", "FP\nK\n", Rule::Exact).expect("differs");
        assert_eq!(m.line, 1);
    }

    #[test]
    fn first_differing_token_is_named() {
        let m = compare("a b c\n", "a x c\n", Rule::Exact).expect("differs");
        assert_eq!(m.detail, "token 2: expected `b`, got `x`");
    }

    #[test]
    fn inner_spacing_matters_for_exact_output() {
        let m = compare("J J\n", "J  J\n", Rule::Exact).expect("differs");
        assert_eq!(m.detail, "same tokens, different spacing");
    }

    #[test]
    fn tolerance_applies_to_numbers_only() {
        let r = Rule::Tolerance(1e-6);
        assert!(compare("0.500000000\n", "0.500000400\n", r).is_none());
        assert!(compare("0.500000000\n", "0.500002000\n", r).is_some());
        assert!(compare("x\n", "y\n", r).is_some());
    }

    #[test]
    fn missing_and_extra_lines_are_reported() {
        let short = compare("1\n2\n", "1\n", Rule::Exact).expect("differs");
        assert_eq!(
            (short.line, short.detail.as_str()),
            (1, "output ends after 1 line, 2 expected")
        );
        let long = compare("1\n", "1\n2\n", Rule::Exact).expect("differs");
        assert_eq!((long.line, long.detail.as_str()), (1, "2 lines, only 1 expected"));
        let none = compare("1\n2\n", "", Rule::Exact).expect("differs");
        assert_eq!(none.detail, "output ends after 0 lines, 2 expected");
    }

    /// A 7 MB token is shown by its first characters and its length.
    #[test]
    fn a_long_token_is_cut_with_its_length_said() {
        let long = "x".repeat(7 << 20);
        let m = compare("1", &long, Rule::Exact).unwrap();
        let want = format!("token 1: expected `1`, got `{}... ({} chars)`", &long[..64], 7 << 20);
        assert_eq!(m.detail, want);
        let m = compare(&long, "", Rule::Exact).unwrap();
        assert!(m.detail.len() < 200, "{}", m.detail);
    }

    #[test]
    fn context_marks_the_differing_line() {
        let c = context("a\nb\nc\n", "a\nx\nc\n", 1);
        assert_eq!(c, "       1   a\n  >    2 - b\n  >    2 + x\n       3   c\n");
    }
}
