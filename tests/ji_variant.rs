//! One 集 variant format for the three 集 programs: one corpus of
//! variant texts, valid and broken, fed to the built `ji_referee`,
//! `ji_solver` and `ji`. Each must give the same verdict, and a refusal the
//! same message about the variant: `line L: what` after `<bin>: ` (ji puts
//! the file name first: `ji: FILE: line L: what`). A program may refuse a
//! valid variant only for its own capacity, in its own words (checked in
//! `capacity_refusals_are_in_each_programs_words`).
//!
//! How a verdict is read: the referee and the solver get the variant text
//! alone, so a refusal names the variant; a variant they accept makes them
//! ask for what follows it (`r`, or `R`), and the text with a short
//! continuation must then run with exit 0. ji reads the text as its
//! `--variant` file and quits.

mod common;

use kit::rng::Rng;
use kit::scratch::Scratch;
use std::fs;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(20);

/// What a program says about a variant text.
#[derive(Debug, PartialEq, Eq, Clone)]
enum Verdict {
    Accepted,
    /// The message about the variant: `line L: what`.
    Refused(String),
}

/// A fresh folder for a variant file, removed when dropped.
fn scratch() -> Scratch {
    Scratch::new("ji-variant")
}

fn stderr_line(bin: &str, run: &common::Run) -> String {
    let err = String::from_utf8_lossy(&run.stderr).into_owned();
    assert_eq!(err.lines().count(), 1, "{bin}: stderr {err:?}");
    let prefix = format!("{bin}: ");
    assert!(err.starts_with(&prefix), "{bin}: stderr {err:?}");
    err[prefix.len()..].trim_end_matches('\n').to_string()
}

/// The first name of a text that parses at least that far: its second
/// token (a leading byte order mark is skipped, as the programs do).
fn first_name(text: &[u8]) -> Vec<u8> {
    let text = text.strip_prefix(b"\xef\xbb\xbf".as_slice()).unwrap_or(text);
    let is_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
    let tokens: Vec<&[u8]> = text.split(is_space).filter(|t| !t.is_empty()).collect();
    tokens.get(1).expect("an accepted variant has a name").to_vec()
}

/// ji_referee or ji_solver: the text alone, then (if the variant part is
/// accepted) the text and a continuation.
fn judge(bin: &str, text: &[u8]) -> Verdict {
    let alone = common::run(bin, &[], text, LIMIT);
    assert_eq!(alone.code, Some(2), "{bin} on {text:?}: exit code");
    let msg = stderr_line(bin, &alone);
    let next = match bin {
        "ji_referee" => "unexpected end of input: expected the number of rounds r",
        _ => "unexpected end of input: expected the round limit R",
    };
    if !msg.ends_with(next) {
        return Verdict::Refused(msg);
    }
    let mut full = text.to_vec();
    match bin {
        "ji_referee" => {
            let name = first_name(text);
            full.extend_from_slice(b"\n1\n");
            full.extend_from_slice(&name);
            full.push(b' ');
            full.extend_from_slice(&name);
            full.push(b'\n');
        }
        _ => full.extend_from_slice(b"\n1 0\n0\n"),
    }
    let run = common::run(bin, &[], &full, LIMIT);
    assert_eq!(
        run.code,
        Some(0),
        "{bin} refuses {full:?} after accepting its variant: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    Verdict::Accepted
}

/// ji with the text as its `--variant` file; a refusal without its file
/// prefix (`FILE: ` is required).
fn trainer(text: &[u8], file: &str) -> Verdict {
    let dir = scratch();
    let path = dir.join(file);
    fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap().to_string();
    let args: Vec<String> =
        ["--variant", &path, "--seed", "1"].iter().map(|s| s.to_string()).collect();
    let run = common::run("ji", &args, b"q\n", LIMIT);
    match run.code {
        Some(0) => Verdict::Accepted,
        Some(2) => {
            let msg = stderr_line("ji", &run);
            let prefix = format!("{path}: ");
            assert!(msg.starts_with(&prefix), "ji: no file prefix: {msg:?}");
            Verdict::Refused(msg[prefix.len()..].to_string())
        }
        code => panic!("ji on {text:?}: exit code {code:?}"),
    }
}

/// The three verdicts, asserted equal; the common one.
fn same_verdict(text: &[u8], file: &str) -> Verdict {
    let referee = judge("ji_referee", text);
    let solver = judge("ji_solver", text);
    let ji = trainer(text, file);
    assert_eq!(referee, solver, "ji_referee vs ji_solver on {text:?}");
    assert_eq!(referee, ji, "ji_referee vs ji on {text:?}");
    referee
}

fn refused(what: &str) -> Verdict {
    Verdict::Refused(what.to_string())
}

fn common_variant() -> String {
    fs::read_to_string(common::root().join("tests/data/ji_variant/common.txt")).unwrap()
}

/// Every Unicode space that is not ASCII (the White_Space property).
const UNICODE_SPACES: [char; 19] = [
    '\u{85}', '\u{a0}', '\u{1680}', '\u{2000}', '\u{2001}', '\u{2002}', '\u{2003}', '\u{2004}',
    '\u{2005}', '\u{2006}', '\u{2007}', '\u{2008}', '\u{2009}', '\u{200a}', '\u{2028}', '\u{2029}',
    '\u{202f}', '\u{205f}', '\u{3000}',
];

#[test]
fn the_corpus_gets_one_verdict_from_all_three() {
    let common = common_variant();
    let long32 = "é".repeat(16);
    let long33 = format!("{}x", "é".repeat(16));
    let ok = Verdict::Accepted;
    let mut cases: Vec<(Vec<u8>, Verdict)> = vec![
        // Valid variants.
        (common.clone().into_bytes(), ok.clone()),
        (common.replace('\n', "\r\n").into_bytes(), ok.clone()),
        (common.replace(' ', "\t").into_bytes(), ok.clone()),
        (format!("\u{feff}{common}").into_bytes(), ok.clone()),
        (common.trim_end().as_bytes().to_vec(), ok.clone()),
        (common.replace('\n', " ").into_bytes(), ok.clone()),
        // Cases the three programs once read differently: U+3000 and
        // NO-BREAK SPACE are part of a name (only ASCII whitespace separates,
        // as for C++ `cin >> std::string`); a 无限集 skill (req > -delta).
        (b"2\na\xe3\x80\x80b 0 0 1 c\nc 0 0 0\n".to_vec(), ok.clone()),
        (b"2\na\xc2\xa0b 0 0 1 c\nc 0 0 0\n".to_vec(), ok.clone()),
        (b"2\na -1 1 0\nb 0 1 1 a\n".to_vec(), ok.clone()),
        (b"2\x0ba\x0b1\x0b0\x0b0\x0bb\x0b0\x0b0\x0b1\x0ba\n".to_vec(), ok.clone()),
        (b"1\x0ca 0 0 0\n".to_vec(), ok.clone()),
        // Names that look like numbers, emoji, the longest names.
        (b"3\n1 1 0 0\n-1 -1 1 1 1\n1e3 0 0 2 1 -1\n".to_vec(), ok.clone()),
        ("2\n🔥 0 0 1 👍🏽\n👍🏽 1 0 0\n".as_bytes().to_vec(), ok.clone()),
        (format!("1\n{long32} 0 0 0\n").into_bytes(), ok.clone()),
        // Numbers as cin reads them.
        (b"+2\na +1 -0 00\nb -01 001 +1 a\n".to_vec(), ok.clone()),
        (b"1\na 9223372036854775807 0 0\n".to_vec(), ok.clone()),
        (b"0002\na 0 0 0\nb 0 0 -0\n".to_vec(), ok.clone()),
        // Broken variants and the one message all three give.
        (b"".to_vec(), refused("line 1: unexpected end of input: expected the number of skills n")),
        (b"\xef\xbb\xbf".to_vec(), refused("line 1: unexpected end of input: expected the number of skills n")),
        (b"0\n".to_vec(), refused("line 1: n must be at least 1")),
        (b"-0\n".to_vec(), refused("line 1: n must be at least 1")),
        (b"-2\n".to_vec(), refused("line 1: n must be at least 1")),
        (b"99999999999999999999\n".to_vec(), refused("line 1: n `99999999999999999999` is beyond 64 bits")),
        (b"two\n".to_vec(), refused("line 1: expected the number of skills n, found `two`")),
        (b"\xef\xbb\xbf\xef\xbb\xbf1\n".to_vec(), refused("line 1: expected the number of skills n, found `\u{feff}1`")),
        (b"1.0\na 0 0 0\n".to_vec(), refused("line 1: expected the number of skills n, found `1.0`")),
        (b"+\n".to_vec(), refused("line 1: expected the number of skills n, found `+`")),
        (b"2\na 0 0 0\n".to_vec(), refused("line 2: unexpected end of input: expected the name of skill 2 of 2")),
        (b"1\na 0 0\n".to_vec(), refused("line 2: unexpected end of input: expected the beaten count k of skill 1 of 1")),
        (b"2\na 0 0 1\n".to_vec(), refused("line 2: unexpected end of input: expected a skill beaten by `a`")),
        (format!("1\n{long33} 0 0 0\n").into_bytes(), refused(&format!("line 2: skill name `{long33}` is 33 bytes long (at most 32)"))),
        (b"1\n\xff 0 0 0\n".to_vec(), refused("line 2: skill name `\\xff` is not valid UTF-8")),
        (b"1\na 1e3 0 0\n".to_vec(), refused("line 2: skill `a`: delta `1e3` is not a 64-bit integer")),
        (b"1\na 9223372036854775808 0 0\n".to_vec(), refused("line 2: skill `a`: delta `9223372036854775808` is not a 64-bit integer")),
        (b"1\na 0 99999999999999999999999999999999999999999 0\n".to_vec(), refused(&format!("line 2: skill `a`: req `{}...` is not a 64-bit integer", "9".repeat(40)))),
        (b"1\na 0 +-1 0\n".to_vec(), refused("line 2: skill `a`: req `+-1` is not a 64-bit integer")),
        (b"1\na -2 1 0\n".to_vec(), refused("line 2: skill `a`: req 1 is below its cost (req must be at least max(0, -delta) = 2)")),
        (b"1\na 0 -1 0\n".to_vec(), refused("line 2: skill `a`: req -1 is below its cost (req must be at least max(0, -delta) = 0)")),
        (b"1\na 0 0 1 a\n".to_vec(), refused("line 2: skill `a`: beats 1 skills but only 0 others exist")),
        (b"2\na 0 0 99999999999999999999 b\nb 0 0 0\n".to_vec(), refused("line 2: skill `a`: beats 99999999999999999999 skills but only 1 others exist")),
        (b"2\na 0 0 -1 b\nb 0 0 0\n".to_vec(), refused("line 2: skill `a`: beaten count k `-1` is not a non-negative integer")),
        (b"2\na 0 0 one b\nb 0 0 0\n".to_vec(), refused("line 2: skill `a`: beaten count k `one` is not a non-negative integer")),
        (b"2\na 0 0 1 a\nb 0 0 0\n".to_vec(), refused("line 2: skill `a` beats itself")),
        (b"2\na 0 0 1 c\nb 0 0 0\n".to_vec(), refused("line 2: skill `a` beats unknown skill `c`")),
        (b"3\na 0 0 2 b b\nb 0 0 0\nc 0 0 0\n".to_vec(), refused("line 2: skill `a` lists `b` twice")),
        (b"2\na 0 0 1 b\nb 0 0 1 a\n".to_vec(), refused("line 3: skills `b` and `a` beat each other (the relation must be antisymmetric)")),
        (b"2\na 0 0 0\na 1 0 0\n".to_vec(), refused("line 3: skill `a` is defined twice (first on line 2)")),
        (b"3\na 0 0 1 b c\nb 0 0 0\nc 0 0 0\n".to_vec(), refused("line 3: skill `c`: delta `b` is not a 64-bit integer (does the previous skill's count k match its list?)")),
        // A Unicode space is no separator: `a\u{3000}0` is one name.
        ("1\na\u{3000}0 0 0\n".as_bytes().to_vec(), refused("line 2: unexpected end of input: expected the beaten count k of skill 1 of 1")),
    ];
    let spaces: Vec<char> = ('\u{80}'..=char::MAX).filter(|c| c.is_whitespace()).collect();
    assert_eq!(spaces, UNICODE_SPACES, "Rust's list of Unicode spaces changed");
    for c in UNICODE_SPACES {
        // Inside a name: valid; as a separator: the tokens shift.
        let inside = format!("2\na{c}b 0 0 1 c\nc 0 0 0\n");
        cases.push((inside.into_bytes(), ok.clone()));
        let between = format!("1\na{c}0 0 0\n");
        let what = "line 2: unexpected end of input: expected the beaten count k of skill 1 of 1";
        cases.push((between.into_bytes(), refused(what)));
    }
    for (i, (text, want)) in cases.iter().enumerate() {
        let got = same_verdict(text, &format!("corpus{i}.txt"));
        assert_eq!(&got, want, "case {i}: {:?}", String::from_utf8_lossy(text));
    }
}

/// One random variant of at most 12 skills, as tokens per skill line, then
/// maybe broken by one mutation, then laid out with random whitespace.
fn random_variant(rng: &mut Rng) -> Vec<u8> {
    const NAMES: [&str; 16] = [
        "集",
        "小波",
        "防",
        "a",
        "B",
        "1",
        "-1",
        "0",
        "1e3",
        "🔥",
        "x\u{3000}y",
        "n\u{a0}b",
        "+1",
        "ééééééééééééééé",
        "\u{2028}",
        "z",
    ];
    let n = 1 + rng.index(12);
    let mut pool: Vec<String> = NAMES.iter().map(|s| s.to_string()).collect();
    pool.extend((0..12).map(|i| format!("s{i}")));
    let mut names = Vec::new();
    while names.len() < n {
        let name = pool.swap_remove(rng.index(pool.len()));
        names.push(name);
    }
    let mut beats = vec![Vec::new(); n];
    for i in 0..n {
        for j in i + 1..n {
            match rng.index(4) {
                0 => beats[i].push(j),
                1 => beats[j].push(i),
                _ => {}
            }
        }
    }
    let mut lines: Vec<Vec<String>> = vec![vec![n.to_string()]];
    for i in 0..n {
        let delta = rng.index(9) as i64 - 4;
        let req = (-delta).max(0) + rng.index(3) as i64 * rng.index(3) as i64;
        let mut line = vec![names[i].clone(), delta.to_string(), req.to_string()];
        line.push(beats[i].len().to_string());
        line.extend(beats[i].iter().map(|&j| names[j].clone()));
        lines.push(line);
    }
    if rng.index(2) == 0 {
        mutate(rng, &mut lines);
    }
    let seps = [" ", " ", " ", "\t", "  ", "\x0b", "\x0c", "\r"];
    let ends = ["\n", "\n", "\n", "\r\n", "\n\n", " \n"];
    let mut text = Vec::new();
    if rng.index(20) == 0 {
        text.extend_from_slice(b"\xef\xbb\xbf");
    }
    for line in &lines {
        for (k, tok) in line.iter().enumerate() {
            if k > 0 {
                text.extend_from_slice(rng.pick(&seps).as_bytes());
            }
            text.extend_from_slice(tok.as_bytes());
        }
        text.extend_from_slice(rng.pick(&ends).as_bytes());
    }
    text
}

/// One mutation that may break the variant (never one that leaves tokens
/// after a complete variant: what follows a variant is each program's own
/// business, not the format's).
fn mutate(rng: &mut Rng, lines: &mut Vec<Vec<String>>) {
    let n = lines.len() - 1;
    let s = 1 + rng.index(n);
    let other = 1 + rng.index(n);
    let garbage = ["x", "1.5", "1e3", "--1", "+", "0x1", "99999999999999999999", "-", "１"];
    match rng.index(12) {
        0 => lines[s][1 + rng.index(3)] = rng.pick(&garbage).to_string(),
        1 => lines[0][0] = rng.pick(&["0", "-1", "+0", "x", "13"]).to_string(),
        2 => {
            let delta: i64 = lines[s][1].parse().unwrap();
            lines[s][2] = ((-delta).max(0) - 1 - rng.index(2) as i64).to_string();
        }
        3 => lines[s][0] = lines[other][0].clone(),
        4 => {
            let name = lines[s][0].clone();
            lines[s].push(name);
            lines[s][3] = (lines[s].len() - 4).to_string();
        }
        5 => {
            // Make `other` beat `s` too (a mutual pair if `s` beats it).
            let name = lines[s][0].clone();
            lines[other].push(name);
            lines[other][3] = (lines[other].len() - 4).to_string();
        }
        6 => {
            let k: usize = lines[s][3].parse().unwrap();
            lines[s][3] = (k + 1).to_string();
        }
        7 if s < n => {
            let k: usize = lines[s][3].parse().unwrap();
            if k > 0 {
                lines[s][3] = (k - 1).to_string();
            }
        }
        8 => {
            let keep = rng.index(lines[s].len());
            lines[s].truncate(keep);
            lines.truncate(s + 1);
        }
        9 => lines[s][0] = "é".repeat(16) + *rng.pick(&["", "x"]),
        10 => {
            lines[s].push("nobody".to_string());
            lines[s][3] = (lines[s].len() - 4).to_string();
        }
        _ => {
            lines[s][0] = format!("{}{}", lines[s][0], rng.pick(&["\u{3000}", "\u{85}", "\u{a0}"]))
        }
    }
}

#[test]
fn random_variants_get_one_verdict_from_all_three() {
    let mut rng = Rng::new(0x6a69_2d76_6172_6961);
    let (mut accepted, mut refused) = (0, 0);
    for i in 0..300 {
        let text = random_variant(&mut rng);
        match same_verdict(&text, &format!("random{i}.txt")) {
            Verdict::Accepted => accepted += 1,
            Verdict::Refused(_) => refused += 1,
        }
    }
    // Both kinds occur often enough for the comparison to mean something.
    assert!(accepted >= 100 && refused >= 80, "{accepted} accepted, {refused} refused");
}

#[test]
fn capacity_refusals_are_in_each_programs_words() {
    let many = |n: usize| {
        let mut s = format!("{n}\n");
        for i in 0..n {
            s += &format!("s{i} 0 0 0\n");
        }
        s.into_bytes()
    };
    // 33 skills: the format, the referee and the solver accept them.
    let text = many(33);
    assert_eq!(judge("ji_referee", &text), Verdict::Accepted);
    assert_eq!(judge("ji_solver", &text), Verdict::Accepted);
    let dir = scratch();
    let path = dir.join("many.txt");
    fs::write(&path, &text).unwrap();
    let path = path.to_str().unwrap().to_string();
    let args = vec!["--variant".to_string(), path.clone()];
    let run = common::run("ji", &args, b"q\n", LIMIT);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        stderr_line("ji", &run),
        format!("{path}: 33 skills: the trainer handles at most 32")
    );
    // req 31 (C = 31): beyond the trainer only.
    let text = b"1\na 0 31 0\n";
    assert_eq!(judge("ji_referee", text), Verdict::Accepted);
    assert_eq!(judge("ji_solver", text), Verdict::Accepted);
    assert_eq!(
        trainer(text, "cap.txt"),
        Verdict::Refused("skill `a`: req 31 is beyond the trainer's limit C <= 30".into())
    );
    // n = 65 or C = 1001 (or the largest req): the solver's limits, no
    // line named (ji refuses them too, tested above).
    let huge = b"1\na -9223372036854775807 9223372036854775807 0\n".to_vec();
    for text in [many(65), b"1\na 0 1001 0\n".to_vec(), huge] {
        assert_eq!(judge("ji_referee", &text), Verdict::Accepted);
        let mut full = text.clone();
        full.extend_from_slice(b"1 0\n0\n");
        let run = common::run("ji_solver", &[], &full, LIMIT);
        assert_eq!(run.code, Some(3));
        let msg = stderr_line("ji_solver", &run);
        assert!(msg.starts_with("the variant is too large to solve here"), "{msg}");
    }
}

/// The common variant is written once, in `tests/data/ji_variant/common.txt`:
/// ji's built-in and kit's read that file; the README and docs/ji.md hold
/// copies checked here.
#[test]
fn the_common_variant_has_one_definition() {
    let common = common_variant();
    let reads = "/tests/data/ji_variant/common.txt\");";
    for (file, item) in [
        ("src/bin/ji/variant.rs", "const COMMON_VARIANT: &str = include_str!("),
        ("kit/src/problems/ji/variant.rs", "const COMMON: &str = include_str!("),
    ] {
        let text = fs::read_to_string(common::root().join(file)).unwrap();
        let line = text.lines().find(|l| l.contains(item)).expect(item);
        assert!(line.ends_with(reads), "{file}: {line}");
    }
    for doc in ["README.md", "docs/ji.md"] {
        let text = fs::read_to_string(common::root().join(doc)).unwrap();
        let fenced = format!("```\n{common}```");
        assert!(text.contains(&fenced), "{doc} lacks the common variant as a ``` block");
    }
}

/// The marked copies of the shared blocks equal their masters.
#[test]
fn shared_blocks_are_in_sync() {
    let out = std::process::Command::new("bash")
        .arg(common::root().join("scripts/sync-shared"))
        .arg("--check")
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "scripts/sync-shared --check: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A variant with lasting effects (`lasting`, docs/ji.md): every program
/// reads it (ji_solver's answers are tested with its fixtures, the
/// trainer's play in tests/ji.rs); without the section the programs read
/// the variant as before.
#[test]
fn lasting_effects_are_read_by_every_program() {
    let base = "3\nsave 1 0 0\nshield 0 0 0\nbreak -1 1 1 save\n";
    let text = format!("{base}lasting 1\nbreak 1 shield 1 shield\n");
    assert_eq!(judge("ji_referee", text.as_bytes()), Verdict::Accepted);
    assert_eq!(judge("ji_solver", text.as_bytes()), Verdict::Accepted);
    assert_eq!(trainer(text.as_bytes(), "lasting.txt"), Verdict::Accepted);
    assert_eq!(same_verdict(base.as_bytes(), "base.txt"), Verdict::Accepted);
    // A malformed section: the referee names the fault.
    let bad = format!("{base}lasting 1\nbreak 1 save 1 shield\n");
    assert_eq!(
        judge("ji_referee", bad.as_bytes()),
        refused(
            "line 6: lasting effect of `break` when it meets `save`: one beats the other, so that \
             round never goes on"
        )
    );
}
