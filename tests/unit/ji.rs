//! Unit tests of `src/bin/ji/` (pulled in by main.rs's `mod tests`).

use crate::archive::*;
use crate::eval::*;
use crate::failure::*;
use crate::model::*;
use crate::names::*;
use crate::rng::*;
use crate::screen::*;
use crate::session::*;
use crate::show::show;
use crate::simplex::*;
use crate::train::*;
use crate::variant::*;
use crate::*;
use std::ffi::OsString;
use std::io::{self, Write};
use std::path::PathBuf;

fn common() -> Model {
    Model::new(parse_variant(COMMON_VARIANT.as_bytes(), "v", 0).unwrap())
}

fn err(text: &str) -> String {
    parse_variant(text.as_bytes(), "v", 0).unwrap_err().to_string()
}

fn skill(model: &Model, name: &str) -> usize {
    model.variant.skills.iter().position(|s| s.name == name).unwrap()
}

#[test]
fn common_variant_rules() {
    let model = common();
    assert_eq!((model.n, model.cap, model.states), (8, 5, 36));
    let (ji, small_def, mid_def, small_wave) =
        (skill(&model, "集"), skill(&model, "小防"), skill(&model, "中防"), skill(&model, "小波"));
    assert!(model.beats(small_wave, ji) && model.beats(small_wave, mid_def));
    assert!(!model.beats(small_wave, small_def) && !model.beats(small_def, small_wave));
    // No 集: no defence is worth playing, only 集.
    assert_eq!(model.playable[0], 1 << ji);
    // 5 集 against 1: 黑洞 beats every affordable reply.
    assert_eq!(model.playable[5 * 6 + 1], 1 << skill(&model, "黑洞"));
    // Capped model: no playable skill raises a count past C.
    for s in 0..model.states {
        for x in bits(model.playable[s]) {
            assert!(s / 6 + model.variant.skills[x].delta.max(0) as usize <= 5);
        }
    }
}

#[test]
fn variant_errors_name_the_skill() {
    // The messages of the shared format block (the same as ji_referee's
    // and ji_solver's, tests/ji_variant.rs), then the trainer's limits.
    let cases = [
        ("", "line 1: unexpected end of input: expected the number of skills n"),
        ("0", "line 1: n must be at least 1"),
        ("1\nA x 0 0", "line 2: skill `A`: delta `x` is not a 64-bit integer"),
        (
            "1\nA -2 1 0",
            "line 2: skill `A`: req 1 is below its cost (req must be at least max(0, -delta) = 2)",
        ),
        ("1\nA 0 0 1 A", "line 2: skill `A`: beats 1 skills but only 0 others exist"),
        ("2\nA 0 0 1 A\nB 0 0 0", "line 2: skill `A` beats itself"),
        (
            "2\nA 0 0 1 B\nB 0 0 1 A",
            "line 3: skills `B` and `A` beat each other (the relation must be antisymmetric)",
        ),
        ("2\nA 0 0 1 C\nB 0 0 0", "line 2: skill `A` beats unknown skill `C`"),
        ("2\nA 0 0 0\nA 0 0 0", "line 3: skill `A` is defined twice (first on line 2)"),
        ("1\nA 0 0 0 x", "line 2: extra token `x` after the last skill"),
        ("2\nA 0 0 0\n", "line 2: unexpected end of input: expected the name of skill 2 of 2"),
        ("1\nA 0 31 0", "skill `A`: req 31 is beyond the trainer's limit C <= 30"),
    ];
    for (text, want) in cases {
        assert_eq!(err(text), format!("v: {}", want), "{:?}", text);
    }
    // Names are parsed by position: numbers are fine as names.
    assert!(parse_variant(b"2\n1 1 0 1 -1\n-1 0 0 0", "v", 0).is_ok());
}

#[test]
fn rock_paper_scissors_stage_game() {
    let a = [0.0, -1.0, 1.0, 1.0, 0.0, -1.0, -1.0, 1.0, 0.0];
    let (v, p) = matrix_game(&a, 3, 3);
    assert!(v.abs() < 1e-12);
    assert!(p.iter().all(|x| (x - 1.0 / 3.0).abs() < 1e-12));
}

#[test]
fn exploitability_of_reference_strategies() {
    let model = common();
    let (value, eq) = equilibrium(&model);
    assert!(value[0].abs() < 1e-12, "symmetric game: value 0");
    let uniform = model.policy(&vec![1.0; model.genes()]);
    let br = exact_best_response(&model, &uniform);
    assert!((br[0] - 0.5).abs() < 1e-12, "uniform AI: {}", br[0]);
    assert!(exact_best_response(&model, &eq)[0].abs() < 1e-9);
    let o = outcomes(&model, &uniform, &uniform);
    assert!((o.win - o.lose).abs() < 1e-12 && (o.win + o.lose + o.draw - 1.0).abs() < 1e-12);
}

/// A fresh population of the common variant after `steps` generations.
fn trained(model: &Model, seed: u64, steps: usize) -> Trainer {
    let (value, _) = equilibrium(model);
    let mut t = Trainer::new(model, &value, Trainer::fresh(model, seed), 0, Rng::new(seed));
    for _ in 0..steps {
        t.step(model, &value);
    }
    t
}

#[test]
fn archive_round_trip_and_corruption() {
    let model = common();
    let t = trained(&model, 9, 1);
    let text = archive_text(&model, &t);
    let archive = parse_archive(text.as_bytes(), "a", &model).unwrap();
    let (g, r, pop) = (archive.generation, archive.rng, archive.population);
    assert_eq!((g, r.state()), (1, t.rng.state()));
    let genes: Vec<Vec<f64>> = t.pop.iter().map(|i| i.genes.clone()).collect();
    assert_eq!(pop, genes);
    let cut: String = text.lines().take(100).map(|l| format!("{}\n", l)).collect();
    let cases = [
        (cut, "ends early"),
        (text.replacen("individual 3\n0 0 ", "individual 3\n0 0 -", 1), "bad weight"),
        (text.replacen("集 1 0 0", "集 2 0 0", 1), "line 2: archive is for another variant"),
    ];
    for (bad, want) in cases {
        let e = match parse_archive(bad.as_bytes(), "a", &model) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{want}: accepted"),
        };
        assert!(e.contains(want), "{}", e);
    }
}

#[test]
fn training_improves_and_is_deterministic() {
    let model = common();
    let before = trained(&model, 1, 0).pop[0].fitness;
    let (a, b) = (trained(&model, 1, 20), trained(&model, 1, 20));
    assert!(a.pop[0].fitness > before);
    assert_eq!(a.pop[0].genes, b.pop[0].genes);
}

#[test]
fn stray_bytes_in_a_command_are_a_hint() {
    let options =
        Options { variant: None, archive: PathBuf::from("/nonexistent/ji-archive"), seed: Some(1) };
    let mut out = Vec::new();
    run(&options, &mut &b"\xff\r\n\x1b[A\nq\n"[..], &mut out, PIPES).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().skip(4).collect();
    assert_eq!(
        lines,
        [
            "unknown command '\\xff'; h lists the commands",
            "unknown command '\\x1b[A'; h lists the commands",
        ]
    );
}

/// Input as a terminal gives it: each chunk is one read, and an empty
/// chunk is a Ctrl-D (a read of 0 bytes, after which reading goes on).
struct TypedInput(Vec<&'static [u8]>);

impl io::Read for TypedInput {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.0.is_empty() {
            return Ok(0);
        }
        let chunk = self.0.remove(0);
        let n = chunk.len().min(buf.len());
        buf[..n].copy_from_slice(&chunk[..n]);
        if n < chunk.len() {
            self.0.insert(0, &chunk[n..]);
        }
        Ok(n)
    }
}

/// Neither end is a terminal (a script), or only the input is.
const PIPES: Terminal = Terminal { input: false, output: false };
const TYPED: Terminal = Terminal { input: true, output: false };

fn session(v: Variant, out: &mut Vec<u8>) -> Session {
    let options =
        Options { variant: None, archive: PathBuf::from("/nonexistent/ji-archive"), seed: Some(3) };
    Session::new(v, &options, out).unwrap()
}

#[test]
fn ctrl_d_ends_the_game_not_the_session() {
    let mut out = Vec::new();
    let mut s = session(common().variant, &mut out);
    let chunks: Vec<&'static [u8]> = vec![b"p\n", b"ji\n", b"", b"h\n", b"", b"never read\n"];
    let mut tty = io::BufReader::new(TypedInput(chunks));
    serve(&mut s, &mut tty, &mut out, TYPED).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("your skill> \ngame abandoned in round 2 (end of input): no winner."),
        "{}",
        text
    );
    // The session went on (h), then ended at the second Ctrl-D with a newline.
    assert!(text.contains("\nji> commands, one per line"), "{}", text);
    assert!(text.ends_with("q, quit       quit (so does Ctrl-D)\nji> \n"), "{}", text);
}

#[test]
fn moves_by_number_name_or_alias() {
    let model = common();
    let mine: Vec<usize> = (0..model.n).filter(|&x| model.variant.skills[x].req <= 1).collect();
    let read = |typed: &'static str| -> (Option<usize>, String) {
        let mut out = Vec::new();
        let mv = read_move(&model, &mine, 1, 0, &mut typed.as_bytes(), &mut out, false).unwrap();
        let x = match mv {
            Some(Move::Play(x)) => Some(x),
            _ => None,
        };
        (x, String::from_utf8(out).unwrap())
    };
    let xiaobo = Some(skill(&model, "小波"));
    assert_eq!(read("小波\n").0, xiaobo);
    assert_eq!(read("  XiaoBo \r\n").0, xiaobo);
    assert_eq!(read("5\n").0, xiaobo, "the 5th in the list");
    let (x, said) = read("6\n大波\n\x1b[B\n1\n");
    assert_eq!(x, Some(skill(&model, "集")));
    assert_eq!(
        said,
        "refused: 6 is not a number in the list (1 to 5); try again\n\
         refused: 大波 big wave needs 3 集, you have 1; try again\n\
         refused: '\\x1b[B' is not a skill, an alias or a number in the list; try again\n"
    );
    // An exact name wins over a number: the skill named 1 is second here.
    let v = parse_variant(b"2\nA 1 0 0\n1 0 0 0", "v", 0).unwrap();
    let model = Model::new(v);
    let mut out = Vec::new();
    let mv = read_move(&model, &[0, 1], 0, 0, &mut &b"1\n"[..], &mut out, false).unwrap();
    assert!(matches!(mv, Some(Move::Play(1))));
}

#[test]
fn english_names_are_moves_in_any_case_with_or_without_the_space() {
    let model = common();
    let big_shield = skill(&model, "大防");
    let mine: Vec<usize> = (0..model.n).filter(|&x| model.variant.skills[x].req <= 1).collect();
    let typed = ["big shield", "BigShield", "bigshield", "BIG SHIELD", " big  shield ", "Da Fang"];
    for word in typed {
        let mut out = Vec::new();
        let line = format!("{word}\n");
        let mv = read_move(&model, &mine, 1, 0, &mut line.as_bytes(), &mut out, false).unwrap();
        let said = String::from_utf8(out).unwrap();
        assert!(matches!(mv, Some(Move::Play(x)) if x == big_shield), "{word:?}: {said}");
    }
    // Every English name, transcribed by hand, names its skill.
    let english = [
        ("集", "charge"),
        ("小防", "small shield"),
        ("中防", "medium shield"),
        ("大防", "big shield"),
        ("小波", "small wave"),
        ("中波", "medium wave"),
        ("大波", "big wave"),
        ("黑洞", "black hole"),
    ];
    for (chinese, name) in english {
        let squashed = name.replace(' ', "").to_uppercase();
        assert_eq!(model.names.find(name), Some(skill(&model, chinese)), "{name}");
        assert_eq!(model.names.find(&squashed), Some(skill(&model, chinese)), "{squashed}");
    }
    // An English name that is another skill's name (in any case) names
    // only that skill: a typed word never names two skills.
    let variant = parse_variant("2\n集 1 0 0\nCharge 0 0 0".as_bytes(), "v", 0).unwrap();
    let model = Model::new(variant);
    assert_eq!(model.names.find("Charge"), Some(1));
    assert_eq!(model.names.find("charge"), None);
    assert_eq!(model.names.find("JI"), Some(0));
}

#[test]
fn round_results_name_the_skills_in_english_within_80_columns() {
    let model = common();
    let english = |x: usize| model.names.english[x].unwrap();
    for x in 0..model.n {
        for y in 0..model.n {
            let report = round_report(&model, x, y);
            assert!(report.lines().all(|l| width(l) <= COLUMNS), "{report}");
            let head = format!("you: {}, AI: {}", model.names.named(x), model.names.named(y));
            assert!(report.starts_with(&head), "{report}");
            let result = if model.beats(x, y) {
                format!("you win ({} beats {})", english(x), english(y))
            } else if model.beats(y, x) {
                format!("the AI wins ({} beats {})", english(y), english(x))
            } else {
                "neither beats the other: go on".to_string()
            };
            assert!(report.ends_with(&format!(" -> {result}")), "{report}");
        }
    }
    let (charge, small_wave) = (skill(&model, "集"), skill(&model, "小波"));
    assert_eq!(
        round_report(&model, charge, small_wave),
        "you: 集 charge, AI: 小波 small wave -> the AI wins (small wave beats charge)"
    );
    // Too long for one line: the result goes on the next.
    let (medium_shield, black_hole) = (skill(&model, "中防"), skill(&model, "黑洞"));
    assert_eq!(
        round_report(&model, medium_shield, black_hole),
        "you: 中防 medium shield, AI: 黑洞 black hole\n  -> the AI wins (black hole beats medium shield)"
    );
    // A skill without an English name is named as the variant names it.
    let model = rock_paper_scissors_wait();
    assert_eq!(round_report(&model, 0, 1), "you: R, AI: P -> the AI wins (P beats R)");
}

#[test]
fn aliases_are_pinyin_and_never_ambiguous() {
    let model = common();
    let want = ["ji", "xiaofang", "zhongfang", "dafang", "xiaobo", "zhongbo", "dabo", "heidong"];
    let got: Vec<&str> = model.names.aliases.iter().map(|a| a.as_deref().unwrap_or("-")).collect();
    assert_eq!(got, want);
    // `ji` is a name here, so 集 gets no alias; 超 is not in the table; an
    // ASCII name needs none; 波2 mixes pinyin and ASCII.
    let v =
        parse_variant("4\n集 1 0 0\nji 0 0 0\n超波 0 0 0\n波2 0 0 0".as_bytes(), "v", 0).unwrap();
    assert_eq!(aliases(&v), [None, None, None, Some("bo2".to_string())]);
}

#[test]
fn rules_table_matches_the_seeds_table() {
    // The seed's table: name, 集的损益, 弱于 (beaten by), transcribed by hand,
    // with the English names.
    let seed = [
        ("集 charge", "gains 1", "小波 中波 大波 黑洞"),
        ("小防 small shield", "costs 0", "中波 大波 黑洞"),
        ("中防 medium shield", "costs 0", "小波 大波 黑洞"),
        ("大防 big shield", "costs 1", "黑洞"),
        ("小波 small wave", "costs 1", "中波 大波 黑洞"),
        ("中波 medium wave", "costs 2", "大波 黑洞"),
        ("大波 big wave", "costs 3", "黑洞"),
        ("黑洞 black hole", "costs 5", ""),
    ];
    let rules = rules(&common());
    let rows: Vec<Vec<&str>> = (rules.lines().skip(4))
        .map(|row| (row.split("  ")).map(str::trim).filter(|c| !c.is_empty()).collect())
        .collect();
    assert_eq!(rows.len(), 8);
    let chinese = |cell: &str| cell.split(' ').next().unwrap().to_string();
    for (row, (name, gain, beaten_by)) in rows.iter().zip(seed) {
        assert_eq!(row[0], name);
        assert_eq!(row[2], gain, "{:?}", row);
        // The table gives "beats"; the seed's 弱于 is its inverse, read back
        // from every other row of the printed table.
        let me = chinese(name);
        let by: Vec<String> = (rows.iter())
            .filter(|r| r[4].split(' ').any(|b| b == me))
            .map(|r| chinese(r[0]))
            .collect();
        assert_eq!(by.join(" "), beaten_by, "{}", name);
    }
    // Columns line up on a terminal (CJK characters are two columns wide).
    let lines: Vec<&str> = rules.lines().skip(4).collect();
    let at = |row: &str| width(&row[..row.find("gains").or_else(|| row.find("costs")).unwrap()]);
    assert!(lines.iter().all(|r| at(r) == at(lines[0])), "{}", rules);
}

#[test]
fn nothing_to_play_at_zero_is_said_not_a_panic() {
    // No skill needs 0 集 (the variant parser's side decides whether such a
    // text is accepted; the trainer takes the variant as given).
    let v = Variant {
        skills: vec![
            Skill { name: "A".into(), delta: 1, req: 1 },
            Skill { name: "B".into(), delta: -1, req: 1 },
        ],
        beats: vec![0b10, 0],
        takes: vec![0; 4],
        losses: vec![Losses::NONE],
    };
    let mut out = Vec::new();
    let mut s = session(v, &mut out);
    serve(&mut s, &mut &b"p\nt 2\ne\ns\nq\n"[..], &mut out, PIPES).unwrap();
    let text = String::from_utf8(out).unwrap();
    let nothing = "no skill needs 0 集, so neither side can move at 0 集";
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[3], format!("nothing to play or train: {}", nothing));
    assert_eq!(lines[4], "r shows the rules, h lists the commands");
    assert_eq!(lines[5], format!("nothing to play: {}", nothing));
    assert_eq!(lines[6], format!("nothing to train: {}", nothing));
    assert!(widest(&text).0 <= COLUMNS, "{}", text);
    assert!(text.contains("vs uniform AI: P(win) 0.000000, P(lose) 0.000000, P(draw) 1.000000"));
    assert!(!text.contains("NaN") && !text.contains("inf"), "{}", text);
    assert_eq!(s.trainer.generation, 0);
}

#[test]
fn failures_map_to_one_exit_code_each() {
    let file =
        |what: &str| Failure::BadInput { file: "a".into(), line: Some(3), what: what.into() };
    let cases = [
        (
            Failure::BadArgument("unknown option '--x' (see --help)".into()),
            2,
            "unknown option '--x' (see --help)",
        ),
        (file("x"), 2, "a: line 3: x"),
        (
            Failure::BadInput { file: "a".into(), line: None, what: "33 skills".into() },
            2,
            "a: 33 skills",
        ),
        (Failure::UnreadableInput("gone".into()), 1, "cannot read the input: gone"),
        (Failure::UnwritableOutput("full".into()), 1, "cannot write the output: full"),
    ];
    for (f, code, text) in cases {
        assert_eq!((f.exit_code(), f.to_string()), (code, text.to_string()));
    }
    // A text's error names the file, then its line.
    let bad = BadLine { line: 3, what: "x".into() };
    assert_eq!(bad.in_file("a"), file("x"));
}

#[test]
fn actions_are_lower_case_letters_or_words() {
    assert_eq!(Action::parse(b"t"), Some(Action::Train));
    assert_eq!(Action::parse(b"eval"), Some(Action::Eval));
    assert_eq!(Action::parse(b"q"), Some(Action::Quit));
    for word in [&b"T"[..], b"PLAY", b"pl", b"", b"x"] {
        assert_eq!(Action::parse(word), None, "{:?}", word);
    }
}

#[test]
fn echoed_text_is_escaped() {
    // The shared quoter: nothing a terminal would obey (an arrow key sends
    // ESC [ A; C1 controls; DEL) nor any invalid UTF-8 is echoed raw.
    assert_eq!(show(b"\x1b[A"), "\\x1b[A");
    assert_eq!(show("a\u{9b}集\x7f".as_bytes()), "a\\xc2\\x9b集\\x7f");
    assert_eq!(show(b"\xff\xe9x"), "\\xff\\xe9x");
    // At most 40 characters (more than the 32 bytes of a name), then `...`.
    assert_eq!(show("集".repeat(40).as_bytes()), "集".repeat(40));
    assert_eq!(show("集".repeat(41).as_bytes()), "集".repeat(40) + "...");
    assert_eq!(show(b""), "");
}

/// The rock-paper-scissors variant with a skill N that beats nothing and
/// nothing beats: one state (C = 0), skills R, P, S, N.
fn rock_paper_scissors_wait() -> Model {
    let v = parse_variant(b"4\nR 0 0 1 S\nP 0 0 1 R\nS 0 0 1 P\nN 0 0 0", "v", 0).unwrap();
    let model = Model::new(v);
    assert_eq!((model.states, model.playable[0]), (1, 0b1111));
    model
}

#[test]
fn exact_evaluation_of_hand_computed_games() {
    let model = rock_paper_scissors_wait();
    let close = |a: f64, b: f64| (a - b).abs() < 1e-15;
    // A: R 1/2, P 1/4, N 1/4; B: R, P, N 1/3 each. A round: A wins by P
    // over R (1/12), loses by R to P (1/6), else goes on: P(win) = 1/3.
    let a = [0.5, 0.25, 0.0, 0.25];
    let b = [1.0 / 3.0, 1.0 / 3.0, 0.0, 1.0 / 3.0];
    let o = outcomes(&model, &a, &b);
    assert!(close(o.win, 1.0 / 3.0) && close(o.lose, 2.0 / 3.0), "{:?}", o);
    assert!(o.draw < 1e-15, "{:?}", o);
    // B's best reply to A is P: it wins half the rounds and never loses.
    assert!(close(exact_best_response(&model, &a)[0], 1.0));
    // N against anything never ends: a draw.
    let o = outcomes(&model, &[0.0, 0.0, 0.0, 1.0], &b);
    assert_eq!((o.win, o.lose, o.draw), (0.0, 0.0, 1.0));
    // A slow game: a round ends once in 2.5e7, P(win) = 1/4 exactly. Value
    // iteration stopped at a change of 1e-13 (what `e` did before) is far
    // from it after its 200,000 sweeps; the direct solve is not.
    let a = [1e-4, 0.0, 0.0, 1.0 - 1e-4];
    let b = [0.0, 3e-4, 1e-4, 1.0 - 4e-4];
    let o = outcomes(&model, &a, &b);
    assert!((o.win - 0.25).abs() < 1e-9 && (o.lose - 0.75).abs() < 1e-9, "{:?}", o);
    let (mut v, win, go_on) = (0.0, 1e-4 * 1e-4, 1.0 - 1e-4 * 4e-4);
    for _ in 0..FINE_SWEEPS.max_sweeps {
        v = win + go_on * v;
    }
    assert!(v < 0.01, "value iteration's stopping rule: {}", v);
}

/// P(A wins) from every state by plain value iteration, written from the
/// rules (no code shared with `outcomes`): the naive model.
fn naive_win(model: &Model, a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut v = vec![0.0; model.states];
    for _ in 0..100_000 {
        let mut next = vec![0.0; model.states];
        for (s, value) in next.iter_mut().enumerate() {
            let (own, opp) = (s / model.side, s % model.side);
            for x in 0..model.n {
                for y in 0..model.n {
                    let p = a[s * model.n + x] * b[(opp * model.side + own) * model.n + y];
                    if p == 0.0 {
                        continue;
                    }
                    if model.beats(x, y) {
                        *value += p;
                    } else if !model.beats(y, x) {
                        let after = |c: usize, z: usize| {
                            (c as i64 + model.variant.skills[z].delta).clamp(0, model.cap as i64)
                                as usize
                        };
                        *value += p * v[after(own, x) * model.side + after(opp, y)];
                    }
                }
            }
        }
        let change = (0..model.states).map(|s| (next[s] - v[s]).abs()).fold(0.0, f64::max);
        v = next;
        if change == 0.0 {
            break;
        }
    }
    v
}

#[test]
fn exact_evaluation_agrees_with_long_value_iteration() {
    let model = common();
    let (_, eq) = equilibrium(&model);
    let t = trained(&model, 5, 3);
    let uniform = model.policy(&vec![1.0; model.genes()]);
    let mut policies = vec![uniform, eq];
    policies.extend(t.pop.iter().take(6).map(|i| model.policy(&i.genes)));
    for (i, a) in policies.iter().enumerate() {
        for b in &policies {
            let o = outcomes(&model, a, b);
            let (win, lose) = (naive_win(&model, a, b)[0], naive_win(&model, b, a)[0]);
            assert!((o.win - win).abs() < 1e-12, "{i}: {} {}", o.win, win);
            assert!((o.lose - lose).abs() < 1e-12, "{i}: {} {}", o.lose, lose);
        }
        // The exact best reply: Bellman's equation holds at its values,
        // and long value iteration reaches the same numbers.
        let exact = exact_best_response(&model, a);
        let long = best_response(&model, a, Tolerance { change: 0.0, max_sweeps: 100_000 });
        let worst = (0..model.states).map(|s| (exact[s] - long[s]).abs()).fold(0.0, f64::max);
        assert!(worst < 1e-12, "{i}: {worst}");
    }
}

/// Every line of `text` (lines split at `\n` and at `\r`, which redraws).
fn widest(text: &str) -> (usize, String) {
    let lines = text.split(['\n', '\r']);
    let w = lines.map(|l| (width(l), l.to_string())).max();
    w.unwrap_or((0, String::new()))
}

#[test]
fn every_screen_fits_80_columns() {
    // A session through every command and every screen of a game on the
    // common variant, as laid out (not wrapped by `Fit`).
    let options =
        Options { variant: None, archive: PathBuf::from("/nonexistent/ji-archive"), seed: Some(2) };
    let moves = "1\n".repeat(40);
    let script = format!("h\nr\ns\ne\nt 2\np\nx\n9\n黑洞\nh\nr\n{moves}p\nq\nhelp x\nT\n");
    let mut out = Vec::new();
    run(&options, &mut script.as_bytes(), &mut out, PIPES).unwrap();
    let text = String::from_utf8(out).unwrap();
    for needed in ["refused:", "beats", "you gave up", "archive NOT saved", "P(draw)"] {
        assert!(text.contains(needed), "{needed}: {text}");
    }
    let all = text + HELP + COMMANDS + MOVE_HELP;
    let (w, line) = widest(&all);
    assert!(w <= COLUMNS, "{w} columns: {line}");
    // The rules are shown at the first `p` and on `r`, not at every `p`.
    let mut out = Vec::new();
    run(&options, &mut &b"p\nq\np\nq\nr\n"[..], &mut out, PIPES).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.matches("rules: you and the AI").count(), 2, "{text}");
    assert!(text.find("rules:") < text.find("new game"));
    // The progress line on a terminal, at the widest counts and values.
    // (Fitness is above -6: the exploitability and each gap are at most 2;
    // `t 1` takes at most 3.3 s, so 100000 generations under 100 hours.)
    let line = progress(99_999, 100_000, -5.999999, 1.999999, 359_999);
    assert!(width(&line) <= COLUMNS - 3, "{line}");
    let mut out = Vec::new();
    let mut s = session(common().variant, &mut out);
    let terminal = Terminal { input: true, output: true };
    serve(&mut s, &mut &b"t 3\n"[..], &mut out, terminal).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("fitness = -(exploitability"), "{text}");
    assert!(text.contains("\r\x1b[Kgeneration 3: best fitness "), "{text}");
    assert!(!text.contains("\ngeneration 1:"), "one line, redrawn: {text}");
    assert!(widest(&text).0 <= COLUMNS);
}

#[test]
fn long_lines_are_wrapped_at_spaces() {
    let long = format!("{} {} end", "集".repeat(30), "word ".repeat(12));
    let mut out = Fit::new(Vec::new());
    write!(out, "{long}\nshort\nprompt> ").unwrap();
    out.flush().unwrap();
    let text = String::from_utf8(out.inner).unwrap();
    assert!(text.ends_with("\nshort\nprompt> "), "{text}");
    assert!(text.lines().all(|l| width(l) <= COLUMNS), "{text}");
    assert!(text.lines().nth(1).unwrap().starts_with("  word"), "{text}");
    // A word longer than a line is cut, and nothing is lost.
    let wrapped = wrap(&"集".repeat(50));
    assert_eq!(wrapped.replace(['\n', ' '], ""), "集".repeat(50));
    assert!(wrapped.lines().all(|l| width(l) <= COLUMNS));
}

#[test]
fn p_best_plays_the_equilibrium() {
    // Every move of the AI in `p best` has positive probability in the
    // equilibrium policy at its (capped) state; over many seeds.
    for seed in 0..20 {
        let options = Options {
            variant: None,
            archive: PathBuf::from("/nonexistent/ji-archive"),
            seed: Some(seed),
        };
        let moves = "1\n".repeat(30);
        let script = format!("p best\n{moves}");
        let mut out = Vec::new();
        let v = common().variant;
        let mut s = Session::new(v, &options, &mut out).unwrap();
        serve(&mut s, &mut script.as_bytes(), &mut out, PIPES).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("new game against the best strategy\nthe game's value is 0.000000"));
        let model = &s.model;
        let mut counts = (0usize, 0usize);
        let mut checked = 0;
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("round ") {
                let n: Vec<usize> = (rest.split(|c: char| !c.is_ascii_digit()))
                    .filter_map(|w| w.parse().ok())
                    .collect();
                counts = (n[1].min(model.cap), n[2].min(model.cap));
            } else if let Some(rest) = line.strip_prefix("you: ") {
                let ai = rest.split("AI: ").nth(1).unwrap().split(' ').next().unwrap();
                let x = skill(model, ai);
                let state = counts.1 * model.side + counts.0;
                assert!(s.eq_policy[state * model.n + x] > 0.0, "{line} at {counts:?}");
                checked += 1;
            }
        }
        assert!(checked > 0, "{text}");
    }
}

#[test]
fn arguments_follow_the_contract() {
    let args = |list: &[&str]| parse_args(list.iter().map(OsString::from));
    let words = |list: &[&str]| args(list).unwrap_err().to_string();
    assert_eq!(args(&[]), Ok(Command::Run(Options::default())));
    let all = Options {
        variant: Some(PathBuf::from("v.txt")),
        archive: PathBuf::from("a"),
        seed: Some(7),
    };
    let list = ["--seed", "7", "--archive", "a", "--variant", "v.txt"];
    assert_eq!(args(&list), Ok(Command::Run(all)));
    assert_eq!(args(&["--seed", "--help"]), Ok(Command::Help));
    assert_eq!(words(&["-"]), "unexpected argument '-' (see --help)");
    assert_eq!(words(&["-x"]), "unknown option '-x' (see --help)");
    assert_eq!(words(&["--archive"]), "option '--archive' needs a value (see --help)");
    assert_eq!(
        words(&["--seed", "2x"]),
        "bad value '2x' for --seed: not an integer 0..2^64 (see --help)"
    );
}

#[test]
#[cfg(unix)]
fn a_path_need_not_be_utf8_but_an_option_name_must() {
    use std::os::unix::ffi::OsStringExt;
    let odd = || OsString::from_vec(b"arch\xffive".to_vec());
    let list = vec![OsString::from("--archive"), odd()];
    match parse_args(list.into_iter()) {
        Ok(Command::Run(options)) => assert_eq!(options.archive, PathBuf::from(odd())),
        _ => panic!("a non-UTF-8 archive path was refused"),
    }
    let failure = parse_args(vec![odd()].into_iter()).unwrap_err();
    assert_eq!(failure.to_string(), "an argument is not valid UTF-8 (see --help)");
}

#[test]
fn a_negligible_probability_is_no_way_out_of_a_loop() {
    // Both sides keep to 小防 at (1, 1), which loops there for ever (a
    // draw), but for 集 with probability 5e-17 (the simplex's rounding
    // leaves such in a strategy): solved as the loop it is, not as a way
    // out that makes `I − Q` singular in floating point.
    let model = Model::new(parse_variant(COMMON_VARIANT.as_bytes(), "common", 0).unwrap());
    let at = model.state(1, 1, Losses::NONE).unwrap();
    let uniform = model.policy(&vec![1.0; model.genes()]);
    let with = |leak: f64| {
        let mut p = uniform.clone();
        p[at * model.n..(at + 1) * model.n].fill(0.0);
        p[at * model.n + 1] = 1.0 - leak; // 小防
        p[at * model.n] = leak; // 集
        outcomes(&model, &p, &p)
    };
    let (exact, noisy) = (with(0.0), with(5e-17));
    assert!(exact.draw > 0.01, "{exact:?}");
    for (a, b) in [(exact.win, noisy.win), (exact.lose, noisy.lose), (exact.draw, noisy.draw)] {
        assert!((a - b).abs() < 1e-9, "{exact:?} vs {noisy:?}");
    }
}
