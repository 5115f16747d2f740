use super::*;

/// The common variant: one definition, `tests/data/ji_variant/common.txt`
/// (checked equal to ji's built-in by tests/ji_variant.rs).
const COMMON: &str = include_str!("../data/ji_variant/common.txt");

fn run_with(input: &str, strict: bool) -> Result<String, Failure> {
    let mut out = Vec::new();
    solve(input.into(), &opts(strict), &mut out, &mut Vec::new())?;
    Ok(String::from_utf8(out).unwrap())
}

fn opts(strict: bool) -> Options {
    Options { strict, ..Options::default() }
}

fn run(input: &str) -> Result<String, Failure> {
    run_with(input, false)
}

fn common(rounds: &str) -> String {
    let n = rounds.lines().filter(|l| !l.trim().is_empty()).count();
    run(&format!("{}{}\n{}", COMMON, n, rounds)).unwrap()
}

fn err(input: &str) -> String {
    run(input).unwrap_err().to_string()
}

fn strict_err(input: &str) -> String {
    run_with(input, true).unwrap_err().to_string()
}

#[test]
fn small_wave_beats_ji_after_saving() {
    assert_eq!(common("集 集\n小波 集\n"), "A 2\n");
}

#[test]
fn small_wave_beats_mid_defence_not_small() {
    assert_eq!(common("集 集\n小波 小防\n"), "CONTINUE 0 1\n");
    assert_eq!(common("集 集\n小波 中防\n"), "A 2\n");
    assert_eq!(common("集 集\n集 集\n小防 中波\n"), "B 3\n");
    assert_eq!(common("集 集\n集 集\n中防 中波\n"), "CONTINUE 2 0\n");
}

#[test]
fn legality_before_beats() {
    assert_eq!(common("小波 集\n"), "ILLEGAL A 1\n");
    assert_eq!(common("集 小波\n"), "ILLEGAL B 1\n");
    assert_eq!(common("大防 黑洞\n"), "ILLEGAL AB 1\n");
}

#[test]
fn count_equal_to_req_is_legal() {
    assert_eq!(common("集 集\n集 集\n中波 大防\n大防 小防\n"), "ILLEGAL A 4\n");
}

#[test]
fn rounds_after_verdict_are_ignored_but_checked() {
    assert_eq!(common("集 集\n小波 集\n黑洞 黑洞\n"), "A 2\n");
    let e = err(&format!("{}3\n集 集\n小波 集\n黑洞 无\n", COMMON));
    assert_eq!(e, "line 13: round 3: unknown skill `无` for B");
}

#[test]
fn big_counts_do_not_overflow() {
    let big = format!("2\ng {} 0 0\nw 0 0 0\n3\ng g\ng g\ng w\n", i64::MAX);
    let expect = format!("CONTINUE {} {}\n", 3 * i128::from(i64::MAX), 2 * i128::from(i64::MAX));
    assert_eq!(run(&big).unwrap(), expect);
}

#[test]
fn numeric_names_parse_by_position() {
    let v = "3\n1 1 0 0\n2 0 0 0\n-1 -1 1 1 1\n3\n1 2\n-1 1\n2 2\n";
    assert_eq!(run(v).unwrap(), "A 2\n");
}

#[test]
fn crlf_same_as_lf() {
    let lf = format!("{}2\n集 集\n小波 集\n", COMMON);
    let crlf = lf.replace('\n', "\r\n");
    assert_eq!(run(&lf).unwrap(), run(&crlf).unwrap());
    assert_eq!(err("2\na 0 0 1 b\nb 0 0 1 a\n"), err("2\r\na 0 0 1 b\r\nb 0 0 1 a\r\n"));
}

#[test]
fn numbers_read_as_cin_reads_them() {
    // `+1` is 1, `-0` and `00` are 0, leading zeros are digits.
    let v = "+2\na +1 -0 00\nb -01 001 +1 a\n+02\na a\nb a\n";
    assert_eq!(run(v).unwrap(), "A 2\n");
    assert_eq!(parse_int(b"-0"), Some(0));
    assert_eq!(parse_int(b"+"), None);
    assert_eq!(parse_int(b"1e3"), None);
    assert_eq!(parse_i64(b"-9223372036854775808"), Some(i64::MIN));
    assert_eq!(parse_i64(b"9223372036854775808"), None);
    assert_eq!(parse_u64(b"18446744073709551615"), Some(u64::MAX));
    assert_eq!(parse_u64(b"-1"), None);
    // Far beyond 64 bits: clamped, never overflowing, still out of range.
    let huge = "9".repeat(100);
    assert_eq!(parse_int(huge.as_bytes()), Some(1 << 65));
    assert_eq!(parse_u64(huge.as_bytes()), None);
}

#[test]
fn only_ascii_whitespace_separates_tokens() {
    // \v and \f separate; U+3000 and NO-BREAK SPACE belong to the name.
    let v = "1\x0ba\u{3000}b\x0c0 0 0\n1\na\u{3000}b a\u{3000}b\n";
    assert_eq!(run(v).unwrap(), "CONTINUE 0 0\n");
    let v = "2\na\u{a0}b 0 0 1 a\na 0 0 0\n1\na\u{a0}b a\n";
    assert_eq!(run(v).unwrap(), "A 1\n");
}

#[test]
fn a_leading_byte_order_mark_is_skipped() {
    let v = format!("\u{feff}{}1\n集 集\n", COMMON);
    assert_eq!(run(&v).unwrap(), "CONTINUE 1 1\n");
    // Elsewhere it is part of a token.
    assert_eq!(err("1\n\u{feff}a 0 0 0\n1\na a\n"), "line 4: round 1: unknown skill `a` for A");
}

#[test]
fn rejects_malformed_variants() {
    assert_eq!(err(""), "line 1: unexpected end of input: expected the number of skills n");
    assert_eq!(err("0\n"), "line 1: n must be at least 1");
    assert_eq!(err("-3\n"), "line 1: n must be at least 1");
    assert_eq!(err("99999999999999999999\n"), "line 1: n `99999999999999999999` is beyond 64 bits");
    assert_eq!(err("x\n"), "line 1: expected the number of skills n, found `x`");
    assert_eq!(err("2\na 0 0 1 c\nb 0 0 0\n1\na b\n"), "line 2: skill `a` beats unknown skill `c`");
    assert_eq!(
        err("2\na 0 0 0\na 0 0 0\n1\na a\n"),
        "line 3: skill `a` is defined twice (first on line 2)"
    );
    assert_eq!(err("2\na 0 0 1 a\nb 0 0 0\n1\na b\n"), "line 2: skill `a` beats itself");
    assert_eq!(
        err("2\na 0 0 1 b\nb 0 0 1 a\n1\na b\n"),
        "line 3: skills `b` and `a` beat each other (the relation must be antisymmetric)"
    );
    assert_eq!(
        err("1\na -2 1 0\n1\na a\n"),
        "line 2: skill `a`: req 1 is below its cost (req must be at least max(0, -delta) = 2)"
    );
    assert_eq!(
        err("1\na 0 -1 0\n1\na a\n"),
        "line 2: skill `a`: req -1 is below its cost (req must be at least max(0, -delta) = 0)"
    );
    assert_eq!(
        err("2\na 0 0 2 b b\nb 0 0 0\n"),
        "line 2: skill `a`: beats 2 skills but only 1 others exist"
    );
    assert_eq!(
        err("2\na 0 0 99999999999999999999 b\nb 0 0 0\n"),
        "line 2: skill `a`: beats 99999999999999999999 skills but only 1 others exist"
    );
    assert_eq!(
        err("2\na 0 0 -1 b\nb 0 0 0\n"),
        "line 2: skill `a`: beaten count k `-1` is not a non-negative integer"
    );
    assert_eq!(
        err("3\na 0 0 1 b c\nb 0 0 0\nc 0 0 0\n"),
        "line 3: skill `c`: delta `b` is not a 64-bit integer (does the previous skill's count k match its list?)"
    );
    assert_eq!(
        err("3\na 0 0 2 b b\nb 0 0 0\nc 0 0 0\n1\na a\n"),
        "line 2: skill `a` lists `b` twice"
    );
    assert_eq!(
        err("1\na 99999999999999999999 0 0\n"),
        "line 2: skill `a`: delta `99999999999999999999` is not a 64-bit integer"
    );
    let long = "x".repeat(33);
    assert_eq!(
        err(&format!("1\n{} 0 0 0\n", long)),
        format!("line 2: skill name `{}` is 33 bytes long (at most 32)", long)
    );
    let ok = "é".repeat(16); // 32 bytes
    assert!(run(&format!("1\n{} 0 0 0\n1\n{} {}\n", ok, ok, ok)).is_ok());
    let not_utf8 = solve(
        b"1\n\xf0\x9f\x94\xa5\x80 0 0 0\n".to_vec(),
        &opts(false),
        &mut Vec::new(),
        &mut Vec::new(),
    );
    assert_eq!(
        not_utf8.unwrap_err().to_string(),
        // The stray byte as `\xNN`, not a raw U+FFFD (one `show` everywhere).
        "line 2: skill name `\u{1F525}\\x80` is not valid UTF-8"
    );
    assert!(run("1\n\u{1F525}\u{1F525} 0 0 0\n1\n\u{1F525}\u{1F525} \u{1F525}\u{1F525}\n").is_ok());
}

#[test]
fn rejects_bad_rounds() {
    for (rounds, want) in [
        ("0\n", "line 10: r = 0 is out of range (1..=200000)"),
        (
            "200001\n",
            "line 10: r = 200001 is out of range (1..=200000)",
        ),
        ("-1\n", "line 10: r = -1 is out of range (1..=200000)"),
        (
            "2\n集 集\n",
            "line 11: unexpected end of input: expected A's skill in round 2 of 2",
        ),
        ("1\n集 波\n", "line 11: round 1: unknown skill `波` for B"),
        (
            "x\n",
            "line 10: expected the number of rounds r, found `x` (does every skill's count k match its list?)",
        ),
    ] {
        assert_eq!(err(&format!("{}{}", COMMON, rounds)), want);
    }
}

#[test]
fn whatever_follows_the_last_round_is_ignored() {
    let one = format!("{}1\n集 集\n", COMMON);
    assert_eq!(run(&format!("{}集\n", one)).unwrap(), "CONTINUE 1 1\n");
    assert_eq!(run(&format!("{}\u{0} 12 x y", one)).unwrap(), "CONTINUE 1 1\n");
    assert_eq!(
        strict_err(&format!("{}1\n集 集\n集\n", COMMON)),
        "line 12 column 1: expected the end of the input, found `集`"
    );
}

#[test]
fn no_free_skill_is_illegal_for_both() {
    assert_eq!(run("1\nx -1 1 0\n1\nx x\n").unwrap(), "ILLEGAL AB 1\n");
}

#[test]
fn strict_accepts_the_statement_layout() {
    let input = format!("{}2\n集 集\n小波 集\n", COMMON);
    assert_eq!(run_with(&input, true).unwrap(), "A 2\n");
    let crlf = input.replace('\n', "\r\n");
    assert_eq!(run_with(&crlf, true).unwrap(), "A 2\n");
}

#[test]
fn strict_stops_at_the_first_deviation() {
    let ok = "2\na 0 0 1 b\nb 0 0 0\n1\na b\n";
    assert_eq!(run_with(ok, true).unwrap(), "A 1\n");
    for (input, want) in [
        ("2\na 0 0 1 b\nb 0 0 0\n1\na b", "line 5 column 4: expected a newline at the end of the input"),
        ("2\na 0 0 1 b\nb 0 0 0\n1\na b\n\n", "line 6 column 1: expected the end of the input, found the end of the line"),
        ("2\na 0 0 1 b\nb 0 0 0\n1\na b \n", "line 5 column 4: expected the end of the line, found a space"),
        ("2\na  0 0 1 b\nb 0 0 0\n1\na b\n", "line 2 column 3: expected the delta of skill 1 of 2 after a single space, found a space"),
        ("2\na\t0 0 1 b\nb 0 0 0\n1\na b\n", "line 2 column 2: expected the delta of skill 1 of 2 after a single space, found a tab"),
        ("2\na 0 0 1\nb\nb 0 0 0\n1\na b\n", "line 2 column 8: expected a skill beaten by `a` after a single space, found the end of the line"),
        ("2\na 0 0 1 b\n\nb 0 0 0\n1\na b\n", "line 3 column 1: expected the name of skill 2 of 2 at the start of the line, found the end of the line"),
        (" 2\na 0 0 1 b\nb 0 0 0\n1\na b\n", "line 1 column 1: expected the number of skills n at the start of the line, found a space"),
        ("2 a 0 0 1 b\nb 0 0 0\n1\na b\n", "line 1 column 2: expected the end of the line, found a space"),
        ("2\ra 0 0 1 b\nb 0 0 0\n1\na b\n", "line 1 column 2: expected the end of the line, found a carriage return (CR)"),
        ("2\na 0 0 1 b\r\n\r\nb 0 0 0\n1\na b\n", "line 3 column 1: expected the name of skill 2 of 2 at the start of the line, found the end of the line"),
        ("\u{feff}2\na 0 0 1 b\nb 0 0 0\n1\na b\n", "line 1 column 1: expected the number of skills n at the start of the line, found a byte order mark"),
        ("2\n集 0 0 1 b\nb 0 0 0\n1\n集  b\n", "line 5 column 3: expected B's skill in round 1 of 1 after a single space, found a space"),
        ("2\na 0 0 1 b\nb 0 0 0\n1 a b\n", "line 4 column 2: expected the end of the line, found a space"),
    ] {
        assert_eq!(strict_err(input), want, "{:?}", input);
        // The default reader accepts every one of them but the last two
        // (one with an unknown name, one whose r line holds a round).
        let lenient = run(input);
        assert!(lenient.is_ok() || input.contains('集') || input.starts_with("2\na 0 0 1 b\nb 0 0 0\n1 a"), "{:?}: {:?}", input, lenient);
    }
}

#[test]
fn strict_still_reports_bad_input_by_line() {
    assert_eq!(
        strict_err("2\na 0 0 1 c\nb 0 0 0\n1\na b\n"),
        "line 2: skill `a` beats unknown skill `c`"
    );
}

#[test]
fn failures_map_to_exit_codes() {
    let what = String::new;
    assert_eq!(Failure::BadInput { line: 1, what: what() }.exit_code(), 2);
    let layout = Failure::BadLayout { line: 1, column: 1, what: what() };
    assert_eq!(layout.exit_code(), 2);
    assert_eq!(Failure::BadArgument(what()).exit_code(), 2);
    assert_eq!(Failure::UnreadableInput(what()).exit_code(), 1);
    assert_eq!(Failure::UnwritableOutput(what()).exit_code(), 1);
}

#[test]
fn every_public_fixture_passes_strict() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ji_referee");
    let mut checked = 0;
    for folder in ["examples", "random"] {
        let mut names: Vec<_> = std::fs::read_dir(root.join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension() == Some("in".as_ref()))
            .collect();
        names.sort();
        for path in names {
            let input = std::fs::read(&path).unwrap();
            let (mut lenient, mut strict) = (Vec::new(), Vec::new());
            solve(input.clone(), &opts(false), &mut lenient, &mut Vec::new()).unwrap();
            let verdict = solve(input, &opts(true), &mut strict, &mut Vec::new());
            assert_eq!(verdict, Ok(()), "{}", path.display());
            assert_eq!(strict, lenient, "{}", path.display());
            checked += 1;
        }
    }
    assert!(checked >= 100, "only {} public fixtures", checked);
}

/// A stdout that refuses every write.
struct Full;

impl Write for Full {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::new(io::ErrorKind::Other, "no space left"))
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn an_unwritable_output_is_exit_1_not_bad_input() {
    let input = format!("{}1\n集 集\n", COMMON);
    let failure = solve(input.into(), &opts(false), &mut Full, &mut Vec::new()).unwrap_err();
    assert_eq!(failure, Failure::UnwritableOutput("no space left".to_string()));
    assert_eq!(failure.exit_code(), 1);
    assert_eq!(failure.to_string(), "cannot write the output: no space left");
}

/// The `--trace` lines of a record, and its verdict.
fn traced(input: &str) -> (String, String) {
    let options = Options { trace: true, ..Options::default() };
    let (mut out, mut log) = (Vec::new(), Vec::new());
    solve(input.into(), &options, &mut out, &mut log).unwrap();
    (String::from_utf8(log).unwrap(), String::from_utf8(out).unwrap())
}

#[test]
fn trace_has_one_line_per_round_up_to_the_deciding_one() {
    // 集 +1 (req 0), 小波 -1 (req 1) beats 集; the rounds after the
    // verdict are not traced.
    let input = format!("{}4\n集 集\n小波 集\n集 集\n集 集\n", COMMON);
    let (log, out) = traced(&input);
    assert_eq!(out, "A 2\n");
    assert_eq!(log, "round 1 集 集 0 0 next 1 1\nround 2 小波 集 1 1 A\n");
}

#[test]
fn trace_results_name_every_ending() {
    let variant = "2\na 1 0 1 b\nb 1 0 0\n";
    for (rounds, want_log, want_out) in [
        ("1\nb a\n", "round 1 b a 0 0 B\n", "B 1\n"),
        ("2\nb b\nb b\n", "round 1 b b 0 0 next 1 1\nround 2 b b 1 1 next 2 2\n", "CONTINUE 2 2\n"),
    ] {
        let (log, out) = traced(&format!("{}{}", variant, rounds));
        assert_eq!((log.as_str(), out.as_str()), (want_log, want_out));
    }
    let costly = "2\nx -1 1 0\ny 1 0 0\n";
    for (rounds, result) in [("x y", "A"), ("y x", "B"), ("x x", "AB")] {
        let (log, out) = traced(&format!("{}1\n{}\n", costly, rounds));
        assert_eq!(log, format!("round 1 {} 0 0 ILLEGAL {}\n", rounds, result));
        assert_eq!(out, format!("ILLEGAL {} 1\n", result));
    }
}

#[test]
fn trace_lines_keep_to_the_contract_on_every_public_fixture() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ji_referee");
    let mut names: Vec<_> = std::fs::read_dir(root.join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension() == Some("in".as_ref()))
        .collect();
    names.sort();
    assert!(!names.is_empty());
    for path in names {
        let input = String::from_utf8(std::fs::read(&path).unwrap()).unwrap();
        let (log, out) = traced(&input);
        let lines: Vec<&str> = log.lines().collect();
        // Round numbers 1..=T in order; the last line decides unless the
        // game continues; counts chain from one line to the next.
        let mut counts = ("0".to_string(), "0".to_string());
        for (i, line) in lines.iter().enumerate() {
            let f: Vec<&str> = line.split(' ').collect();
            assert_eq!(f[0], "round", "{}", path.display());
            assert_eq!(f[1], (i + 1).to_string(), "{}", path.display());
            assert_eq!((f[4], f[5]), (counts.0.as_str(), counts.1.as_str()));
            let last = i + 1 == lines.len();
            match &f[6..] {
                ["next", a, b] => counts = (a.to_string(), b.to_string()),
                [side] if last && (*side == "A" || *side == "B") => {
                    assert_eq!(out, format!("{} {}\n", side, i + 1))
                }
                ["ILLEGAL", who] if last => assert_eq!(out, format!("ILLEGAL {} {}\n", who, i + 1)),
                other => panic!("{}: bad trace result {:?}", path.display(), other),
            }
        }
        if out.starts_with("CONTINUE") {
            assert_eq!(out, format!("CONTINUE {} {}\n", counts.0, counts.1));
        }
    }
}

#[test]
fn a_trace_leaves_the_output_unchanged() {
    let input = format!("{}2\n集 集\n小波 集\n", COMMON);
    let (_, out) = traced(&input);
    assert_eq!(out, run(&input).unwrap());
}

fn args(list: &[&str]) -> impl Iterator<Item = OsString> {
    list.iter().map(OsString::from).collect::<Vec<_>>().into_iter()
}

#[test]
fn arguments_follow_the_contract() {
    assert_eq!(parse_args(args(&[])), Ok(Command::Run(Options::default())));
    let both = Options { strict: true, trace: true };
    assert_eq!(parse_args(args(&["--trace", "--strict"])), Ok(Command::Run(both)));
    for help in [&["-h"][..], &["--strict", "--help"], &["--nope", "--help"]] {
        assert_eq!(parse_args(args(help)), Ok(Command::Help), "{:?}", help);
    }
    for (list, want) in [
        (&["--x"][..], "unknown option '--x' (see --help)"),
        (&["--strict", "x"], "unexpected argument 'x' (see --help)"),
        (&["-"], "unexpected argument '-' (see --help)"),
    ] {
        let failure = parse_args(args(list)).unwrap_err();
        assert_eq!(failure.to_string(), want);
        assert_eq!(failure.exit_code(), 2);
    }
}

#[test]
#[cfg(unix)]
fn a_non_utf8_argument_is_a_bad_argument() {
    use std::os::unix::ffi::OsStringExt;
    let odd = OsString::from_vec(b"--\xff".to_vec());
    let failure = parse_args(vec![odd].into_iter()).unwrap_err();
    assert_eq!(failure.to_string(), "an argument is not valid UTF-8 (see --help)");
}

// ---- lasting effects --------------------------------------------------------

/// A skill of a random variant, as the naive model holds it.
struct NaiveSkill {
    delta: i64,
    req: i64,
    beats: Vec<usize>,
}

/// A lasting effect, straight from the rule: `skill` meeting `met` in a
/// round that goes on takes `taken` from the other side.
struct NaiveEffect {
    skill: usize,
    met: usize,
    taken: Vec<usize>,
}

/// The referee written from the rules, with lasting effects: the verdict
/// and the trace's `taken` lines.
fn naive_referee(
    skills: &[NaiveSkill],
    effects: &[NaiveEffect],
    rounds: &[(usize, usize)],
) -> (String, String) {
    let name = |x: usize| format!("s{x}");
    let (mut a, mut b) = (0i128, 0i128);
    // lost[0]: A's lost skills, lost[1]: B's.
    let mut lost = [vec![false; skills.len()], vec![false; skills.len()]];
    let mut log = String::new();
    for (i, &(x, y)) in rounds.iter().enumerate() {
        let t = i + 1;
        let bad_a = a < i128::from(skills[x].req) || lost[0][x];
        let bad_b = b < i128::from(skills[y].req) || lost[1][y];
        let verdict = match (bad_a, bad_b) {
            (true, true) => Some(format!("ILLEGAL AB {t}\n")),
            (true, false) => Some(format!("ILLEGAL A {t}\n")),
            (false, true) => Some(format!("ILLEGAL B {t}\n")),
            _ if skills[x].beats.contains(&y) => Some(format!("A {t}\n")),
            _ if skills[y].beats.contains(&x) => Some(format!("B {t}\n")),
            _ => None,
        };
        if let Some(v) = verdict {
            return (v, log);
        }
        a += i128::from(skills[x].delta);
        b += i128::from(skills[y].delta);
        // Both effects at once; each side's new losses in the listed order.
        let mut now: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        for e in effects {
            for (side, mine, theirs) in [(1, x, y), (0, y, x)] {
                if e.skill == mine && e.met == theirs {
                    for &z in &e.taken {
                        if !lost[side][z] {
                            lost[side][z] = true;
                            now[side].push(z);
                        }
                    }
                }
            }
        }
        for (side, who) in [(0, "A"), (1, "B")] {
            if !now[side].is_empty() {
                let names: Vec<String> = now[side].iter().map(|&z| name(z)).collect();
                log += &format!("taken {t} {who} {}\n", names.join(" "));
            }
        }
    }
    (format!("CONTINUE {a} {b}\n"), log)
}

/// A small deterministic generator (splitmix64) for the random records.
struct Mix(u64);

impl Mix {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }
}

/// A random variant with lasting effects, its text, and a random record.
fn random_lasting(rng: &mut Mix) -> (Vec<NaiveSkill>, Vec<NaiveEffect>, String) {
    let n = 2 + rng.below(5) as usize;
    let mut skills: Vec<NaiveSkill> = (0..n)
        .map(|_| {
            let delta = rng.below(5) as i64 - 2;
            NaiveSkill { delta, req: (-delta).max(0) + rng.below(2) as i64, beats: Vec::new() }
        })
        .collect();
    for x in 0..n {
        for y in 0..n {
            if x != y && !skills[y].beats.contains(&x) && rng.below(4) == 0 {
                skills[x].beats.push(y);
            }
        }
    }
    // Effects on pairs where neither beats the other, each pair once.
    let mut effects: Vec<NaiveEffect> = Vec::new();
    for x in 0..n {
        for y in 0..n {
            let quiet = !skills[x].beats.contains(&y) && !skills[y].beats.contains(&x);
            if quiet && rng.below(3) == 0 {
                let mut taken: Vec<usize> = (0..n).filter(|_| rng.below(3) == 0).collect();
                if taken.is_empty() {
                    taken.push(rng.below(n as u64) as usize);
                }
                effects.push(NaiveEffect { skill: x, met: y, taken });
            }
        }
    }
    let mut text = format!("{n}\n");
    for (x, s) in skills.iter().enumerate() {
        let beaten: String = s.beats.iter().map(|y| format!(" s{y}")).collect();
        text += &format!("s{x} {} {} {}{beaten}\n", s.delta, s.req, s.beats.len());
    }
    if !effects.is_empty() {
        text += &format!("lasting {}\n", effects.len());
        for e in &effects {
            let taken: String = e.taken.iter().map(|z| format!(" s{z}")).collect();
            text += &format!("s{} 1 s{} {}{taken}\n", e.skill, e.met, e.taken.len());
        }
    }
    (skills, effects, text)
}

#[test]
fn lasting_effects_agree_with_a_naive_referee() {
    let mut rng = Mix(0x5eed_1a57);
    let (mut with_effects, mut taken_lines, mut illegal_by_loss) = (0, 0, 0);
    for _ in 0..2000 {
        let (skills, effects, text) = random_lasting(&mut rng);
        let r = 1 + rng.below(12) as usize;
        let n = skills.len() as u64;
        let rounds: Vec<(usize, usize)> =
            (0..r).map(|_| (rng.below(n) as usize, rng.below(n) as usize)).collect();
        let record: String = rounds.iter().map(|(x, y)| format!("s{x} s{y}\n")).collect();
        let input = format!("{text}{r}\n{record}");
        let (want, want_taken) = naive_referee(&skills, &effects, &rounds);
        let (log, out) = traced(&input);
        let got_taken: String =
            log.lines().filter(|l| l.starts_with("taken ")).map(|l| format!("{l}\n")).collect();
        assert_eq!(
            (out.as_str(), got_taken.as_str()),
            (want.as_str(), want_taken.as_str()),
            "{input}"
        );
        with_effects += usize::from(!effects.is_empty());
        taken_lines += want_taken.lines().count();
        // Illegal only because of a loss: the count alone would allow it.
        let plain: Vec<NaiveEffect> = Vec::new();
        if want.starts_with("ILLEGAL") && naive_referee(&skills, &plain, &rounds).0 != want {
            illegal_by_loss += 1;
        }
    }
    // The draws exercise the rule, not only the parser.
    assert!(
        with_effects > 1500 && taken_lines > 200 && illegal_by_loss > 50,
        "{with_effects} {taken_lines} {illegal_by_loss}"
    );
}

#[test]
fn a_variant_without_lasting_effects_plays_as_before() {
    // `lasting` stands where r is read: a variant without it is unchanged,
    // and a skill may even be named `lasting`.
    let input = "2\nlasting 1 0 1 b\nb 0 0 0\n2\nb lasting\nlasting b\n";
    assert_eq!(run(input).unwrap(), "B 1\n");
    assert_eq!(common("集 集\n小波 小防\n"), "CONTINUE 0 1\n");
}

#[test]
fn lasting_section_rejections() {
    let v = "3\nsave 1 0 0\nshield 0 0 0\nbreak -1 1 1 save\n";
    let r = "1\nsave save\n";
    for (section, want) in [
        ("lasting 0\n", "line 5: lasting effects: m `0` is not in 1..=9"),
        ("lasting 10\n", "line 5: lasting effects: m `10` is not in 1..=9"),
        ("lasting -1\n", "line 5: lasting effects: m `-1` is not in 1..=9"),
        ("lasting x\n", "line 5: expected the number of lasting effects m, found `x`"),
        ("lasting 1\nbrake 1 shield 1 shield\n", "line 6: lasting effect of unknown skill `brake`"),
        (
            "lasting 1\nbreak 1 shied 1 shield\n",
            "line 6: lasting effect of `break` meets unknown skill `shied`",
        ),
        (
            "lasting 1\nbreak 1 shield 1 sheild\n",
            "line 6: lasting effect of `break` takes unknown skill `sheild`",
        ),
        ("lasting 1\nbreak 0 1 shield\n", "line 6: lasting effect of `break`: met count `0` is not in 1..=3"),
        ("lasting 1\nbreak 4 1 shield\n", "line 6: lasting effect of `break`: met count `4` is not in 1..=3"),
        ("lasting 1\nbreak 1 shield 0\n", "line 6: lasting effect of `break`: taken count `0` is not in 1..=3"),
        (
            "lasting 1\nbreak 1 save 1 shield\n",
            "line 6: lasting effect of `break` when it meets `save`: one beats the other, so that round never goes on",
        ),
        (
            "lasting 1\nsave 1 break 1 shield\n",
            "line 6: lasting effect of `save` when it meets `break`: one beats the other, so that round never goes on",
        ),
        (
            "lasting 2\nbreak 1 shield 1 shield\nbreak 2 break shield 1 save\n",
            "line 7: lasting effect of `break` when it meets `shield` is given twice",
        ),
        (
            "lasting 1\nbreak 2 shield shield 1 save\n",
            "line 6: lasting effect of `break` when it meets `shield` is given twice",
        ),
        ("lasting 1\nbreak 1 shield 2 save save\n", "line 6: lasting effect of `break` takes `save` twice"),
    ] {
        assert_eq!(err(&format!("{v}{section}{r}")), want, "{section}");
    }
    assert_eq!(
        err(&format!("{v}lasting 2\nbreak 1 shield 1 shield\n")),
        "line 6: unexpected end of input: expected the skill of lasting effect 2 of 2"
    );
}

#[test]
fn strict_checks_the_lasting_section_layout() {
    let v = "3\nsave 1 0 0\nshield 0 0 0\nbreak -1 1 1 save\n";
    let r = "1\nsave save\n";
    let ok = format!("{v}lasting 1\nbreak 1 shield 1 shield\n{r}");
    assert_eq!(run_with(&ok, true).unwrap(), "CONTINUE 1 1\n");
    for (section, want) in [
        (
            "lasting\n1\nbreak 1 shield 1 shield\n",
            "line 5 column 8: expected the number of lasting effects m after a single space, found the end of the line",
        ),
        (
            "lasting 1 break 1 shield 1 shield\n",
            "line 5 column 10: expected the end of the line, found a space",
        ),
        (
            "lasting 1\nbreak 1 shield\n1 shield\n",
            "line 6 column 15: expected the taken count of `break`'s lasting effect after a single space, found the end of the line",
        ),
        ("lasting 01\nbreak 1 shield 1 shield\n", "line 5 column 9: m `01`: an integer has no leading zero, `+` or `-0`"),
        ("lasting 1\nbreak +1 shield 1 shield\n", "line 6 column 7: met `+1`: an integer has no leading zero, `+` or `-0`"),
    ] {
        assert_eq!(strict_err(&format!("{v}{section}{r}")), want, "{section}");
    }
}
