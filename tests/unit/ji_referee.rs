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
