//! `kit show`: the data each page embeds, checked against what the solvers
//! print (the 猪国杀 books against every trace line, every dead ant of
//! `--explain` marked, every 集 state answered), the page sizes, and the
//! pages themselves in a real browser (headless Chromium's `--dump-dom`
//! runs their script; see `browser`).

use kit::pages::{ants, ji, zhuguosha};
use kit::show;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn solver(problem: &str) -> PathBuf {
    PathBuf::from(common::solver(problem))
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A fresh folder for this test's files.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kit-show-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// The fixtures of `dir` (relative to tests/data) whose .args is `flag`.
fn fixtures_with(dir: &str, flag: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![root().join("tests/data").join(dir)];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).expect("fixture folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "args")
                && read(&path).split_whitespace().any(|a| a == flag)
                && read(&path).split_whitespace().all(|a| a == flag)
            {
                found.push(path.with_extension("in"));
            }
        }
    }
    found.sort();
    found
}

fn sibling(input: &Path, ext: &str) -> String {
    fs::read_to_string(input.with_extension(ext)).unwrap_or_default()
}

// ---- 猪国杀 ----------------------------------------------------------------

fn replay_of_fixture(input: &Path) -> zhuguosha::Replay {
    let code: i32 = sibling(input, "code").trim().parse().unwrap_or(0);
    zhuguosha::replay(&read(input), &sibling(input, "out"), &sibling(input, "err"), code)
        .unwrap_or_else(|e| panic!("{}: {e}", input.display()))
}

/// The pigs' hp after `n` events, read naively from the trace: each pig's
/// latest hp mention (4 if none yet).
fn hp_after(trace: &str, pigs: usize, n: usize) -> Vec<i32> {
    let mut hp = vec![4; pigs];
    for line in trace.lines().take(n) {
        let w: Vec<&str> = line.split(' ').collect();
        let (pig, value) = match w.as_slice() {
            ["turn", _, "pig", p, _, "hp", h, ..] => (p, h),
            ["damage", p, "by", _, "hp", h] => (p, h),
            ["peach", p, "hp", h] => (p, h),
            ["play", p, "P", "hp", h] => (p, h),
            _ => continue,
        };
        hp[pig.parse::<usize>().unwrap() - 1] = value.parse().unwrap();
    }
    hp
}

#[test]
fn zhuguosha_books_agree_with_every_trace_fixture() {
    let inputs = fixtures_with("zhuguosha", "--trace");
    assert!(inputs.len() >= 20, "trace fixtures: {inputs:?}");
    for input in inputs {
        let replay = replay_of_fixture(&input);
        let trace = sibling(&input, "err");
        let events: Vec<&str> = trace.lines().filter(|l| !l.starts_with("zhuguosha:")).collect();
        assert_eq!(replay.events.len(), events.len(), "{}", input.display());
        assert_eq!(replay.states.len(), events.len() + 1);
        for (k, line) in events.iter().enumerate() {
            let after = &replay.states[k + 1];
            let hp = hp_after(&trace, after.len(), k + 1);
            let kept: Vec<i32> = after.iter().map(|p| p.hp).collect();
            assert_eq!(kept, hp, "{} after event {}", input.display(), k + 1);
            // A turn line states the hand and weapon of the pig whose turn it is.
            let w: Vec<&str> = line.split(' ').collect();
            if w[0] == "turn" {
                let pig = &after[w[3].parse::<usize>().unwrap() - 1];
                assert_eq!(pig.hand, w[10..].concat(), "{} event {}", input.display(), k + 1);
                assert_eq!(pig.weapon, w[8] == "yes");
            }
            if w[0] == "death" {
                assert!(after[w[1].parse::<usize>().unwrap() - 1].dead);
            }
        }
        let last = replay.states.last().unwrap();
        if sibling(&input, "code").trim() == "3" {
            assert!(replay.cut_off.as_deref().unwrap().starts_with("the game does not end"));
        } else {
            // The last step is the answer: its pig lines are the books.
            let answer = sibling(&input, "out");
            let lines: Vec<&str> = answer.lines().skip(1).map(str::trim_end).collect();
            for (pig, line) in last.iter().zip(&lines) {
                let hand: Vec<String> = pig.hand.chars().map(String::from).collect();
                let expected = if pig.dead { "DEAD".to_string() } else { hand.join(" ") };
                assert_eq!(*line, expected, "{}", input.display());
            }
        }
    }
}

#[test]
fn zhuguosha_sample_step_12_is_the_statement_story() {
    let replay = replay_of_fixture(&root().join("tests/data/zhuguosha/trace/sample.in"));
    // Event 12 is pig 2's third 南猪入侵: MP and pig 3 are at hp 2,
    // pig 2 (marked 类反猪 at event 7) holds D D D.
    let e = &replay.events[11];
    assert_eq!((e.line.as_str(), e.source, e.target), ("play 2 N", Some(1), None));
    let pigs = &replay.states[12];
    let hp: Vec<i32> = pigs.iter().map(|p| p.hp).collect();
    assert_eq!(hp, [2, 4, 2]);
    assert_eq!(pigs[1].hand, "DDD");
    assert_eq!(pigs[1].known, zhuguosha::Known::LikeRebel);
    assert_eq!(pigs[2].hand, "JJJJ");
    // Step 0 is the deal from the input.
    let deal: Vec<&str> = replay.states[0].iter().map(|p| p.hand.as_str()).collect();
    assert_eq!(deal, ["DDFF", "NNND", "JJJJ"]);
    assert_eq!(replay.deck, "FFDDJJFFKD");
}

#[test]
fn zhuguosha_books_refuse_a_trace_that_disagrees() {
    let input = "3 4\nMP K K K K\nZP D D D D\nFP P P P P\nK K K K\n";
    let wrong = "turn 1 pig 1 MP hp 4 weapon no hand K K K D\n";
    let err = zhuguosha::replay(input, "", wrong, 0).unwrap_err();
    assert!(err.contains("trace line 1"), "{err}");
    let drew = "turn 1 pig 1 MP hp 4 weapon no hand K K K K\ndraw 1 K P\n";
    let err = zhuguosha::replay(input, "", drew, 0).unwrap_err();
    assert!(err.contains("the deck says"), "{err}");
}

#[test]
fn a_max_deck_page_stays_under_2_mb() {
    let zhuguosha = solver("zhuguosha");
    let mut largest = 0;
    for seed in 1..=10u64 {
        let case = kit_gen("zhuguosha", "max_deck", seed);
        let page = show::page("zhuguosha", case.as_bytes(), &zhuguosha, "max_deck")
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        largest = largest.max(page.len());
    }
    assert!(largest <= 2_000_000, "{largest} bytes");
}

#[test]
fn a_game_that_never_ends_after_2000_cards_replays_to_its_cut_off() {
    // Ten pigs and a deck of D, P, Z, J only: nobody can hurt anybody, the
    // hands grow for 1000 turns until the deck is out and a round is quiet.
    let mut deck = Vec::new();
    let mut x: u32 = 5;
    for _ in 0..2000 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        deck.push(["D", "D", "P", "Z", "J"][(x >> 16) as usize % 5]);
    }
    let mut input = String::from("10 2000\nMP D D P P\n");
    for pig in 2..=10 {
        input.push_str(if pig % 2 == 0 { "ZP D D D P\n" } else { "FP D D D P\n" });
    }
    input.push_str(&deck.join(" "));
    input.push('\n');
    let page = show::page("zhuguosha", input.as_bytes(), &solver("zhuguosha"), "endless").unwrap();
    assert!(page.contains("\"cutOff\":\"the game does not end: the deck is exhausted"));
    assert!(page.len() <= 2_000_000, "{} bytes", page.len());
}

/// `kit gen PROBLEM --profile P --seed S` in-process.
fn kit_gen(problem: &str, profile: &str, seed: u64) -> String {
    let args: Vec<std::ffi::OsString> =
        ["gen", problem, "--profile", profile, "--seed", &seed.to_string(), "--solver"]
            .iter()
            .map(Into::into)
            .chain(std::iter::once(solver(problem).into_os_string()))
            .collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = kit::cli::main(&args, &mut out, &mut err, false);
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
    String::from_utf8(out).unwrap()
}

// ---- Ants ------------------------------------------------------------------

#[test]
fn every_dead_ant_of_explain_is_marked_with_its_reason() {
    let inputs = fixtures_with("ants_battle", "--explain");
    assert!(inputs.len() >= 10, "{inputs:?}");
    for input in inputs {
        let output = sibling(&input, "out");
        let battle = ants::battle(&read(&input), &output).unwrap();
        check_battle(&battle, &output, &input.display().to_string());
    }
}

/// The page's packed data, decoded as the page does, says exactly what
/// `--explain` says: each ant's weakness, and each dead line.
fn check_battle(battle: &ants::Battle, output: &str, name: &str) {
    let json = ants::data_text(battle);
    let fates = &battle.fates;
    let width = ants::width(battle);
    let packed = ants::pack(&battle.codes, width);
    assert!(json.contains(&format!("\"width\":{width},")), "{name}");
    assert!(json.contains(&packed), "{name}");
    let decoded = ants::unpack(&packed, width);
    let weakness: String = output.lines().filter_map(|l| l.strip_prefix("w ")).collect();
    let mut dead_lines = Vec::new();
    let mut ant = 0;
    for (cell, &c) in battle.map.iter().enumerate() {
        if !ants::is_ant(c) {
            assert_eq!(weakness.as_bytes()[cell], b'.', "{name} cell {cell}");
            continue;
        }
        let fate = &fates[decoded[ant]];
        ant += 1;
        assert_eq!(fate.weakness as u8, weakness.as_bytes()[cell], "{name} cell {cell}");
        if fate.dead {
            let (r, col) = (cell / battle.cols, cell % battle.cols);
            let owner = (c.to_ascii_lowercase() - b'a') as usize;
            // The page writes a focus enemy's cell from its offset.
            let at = |delta: i64, base: usize, size: usize| {
                (base as i64 + delta).rem_euclid(size as i64)
            };
            let reason = fate.reason.replace(
                '@',
                &format!(
                    "{} {}",
                    at(fate.enemy.0, r, battle.rows),
                    at(fate.enemy.1, col, battle.cols)
                ),
            );
            dead_lines.push(format!("dead {r} {col} {owner} {reason}"));
        }
    }
    assert_eq!(ant, decoded.len());
    let expected: Vec<&str> = output.lines().filter(|l| l.starts_with("dead ")).collect();
    assert_eq!(dead_lines, expected, "{name}");
}

#[test]
fn random_battles_in_every_mode_are_marked_too() {
    let ants_battle = solver("ants_battle");
    let mut modes = std::collections::BTreeSet::new();
    let profiles = [
        "random",
        "tiny_torus",
        "dense",
        "ten_players",
        "hills",
        "damage_near_1",
        "closest_chains",
    ];
    for (i, profile) in profiles.iter().cycle().take(28).enumerate() {
        let seed = i as u64 + 1;
        let input = kit_gen("ants_battle", profile, seed);
        let out = Command::new(&ants_battle)
            .arg("--explain")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child.stdin.take().unwrap().write_all(input.as_bytes())?;
                child.wait_with_output()
            })
            .unwrap();
        let output = String::from_utf8(out.stdout).unwrap();
        let battle = ants::battle(&input, &output).unwrap();
        modes.insert(battle.mode.clone());
        check_battle(&battle, &output, &format!("{profile} seed {seed}"));
    }
    assert_eq!(modes.len(), 4, "{modes:?}");
}

#[test]
fn the_2000_by_2000_benchmark_page_stays_under_8_mb() {
    let input = kit_gen("ants_battle", "big", 1);
    let page = show::page("ants_battle", input.as_bytes(), &solver("ants_battle"), "big").unwrap();
    assert!(page.len() <= 8_000_000, "{} bytes", page.len());
    // And it opens: the script runs to its end (1,599,311 ants drawn).
    let test = "the_2000_by_2000_benchmark_page_stays_under_8_mb (its opening)";
    if let Some(browser) = chromium(test) {
        let dir = scratch("big");
        let file = dir.join("big.html");
        fs::write(&file, page).unwrap();
        let dom = rendered(&browser, &file, "cell=1000,1000");
        assert_eq!(attribute(tag(&dom, "map"), "data-ready"), "1599311");
        assert_eq!(attribute(tag(&dom, "map"), "data-grid"), "on");
        // Seen whole (under a pixel a cell), a grid would be all lines.
        let whole = rendered(&browser, &file, "");
        assert_eq!(attribute(tag(&whole, "map"), "data-grid"), "off");
        let _ = fs::remove_dir_all(&dir);
    }
}

// ---- 集 --------------------------------------------------------------------

#[test]
fn the_pages_name_skills_in_english_as_ji_does() {
    // The trainer's table, wherever its modules put it: each pair as
    // written there, `("集", "charge"),`.
    let ji: String = common::sources("ji").iter().map(|f| read(f)).collect();
    for (chinese, english) in kit::ji::ENGLISH {
        let pair = format!("(\"{chinese}\", \"{english}\")");
        assert!(ji.contains(&pair), "ji names {chinese} otherwise than {pair}");
    }
}

#[test]
fn referee_rounds_follow_the_contract_trace_format() {
    let trace = "round 1 集 集 0 0 next 1 1\nround 2 集 小　波 1 1 B\nsomething else\n";
    let rounds = ji::rounds(trace).unwrap();
    assert_eq!(rounds.len(), 2);
    assert_eq!(rounds[0].moves, ["集".to_string(), "集".to_string()]);
    assert_eq!(rounds[0].result, "next 1 1");
    assert_eq!(rounds[1].moves[1], "小　波", "U+3000 belongs to the name");
    assert_eq!(rounds[1].before, ["1".to_string(), "1".to_string()]);
    assert_eq!(rounds[1].result, "B");
    let illegal = ji::rounds("round 7 a b 0 3 ILLEGAL AB\n").unwrap();
    assert_eq!(illegal[0].result, "ILLEGAL AB");
    assert!(ji::rounds("round 1 a b\n").is_err());
}

#[test]
fn without_a_trace_the_record_shows_the_rounds_up_to_the_verdict() {
    let input = "2\n集 1 0 0\n波 -1 1 1 集\n3\n集 集\n集 波\n波 波\n";
    let rounds = ji::record_rounds(input, "B 2\n").unwrap();
    assert_eq!(rounds.len(), 2);
    assert_eq!(rounds[1].moves, ["集".to_string(), "波".to_string()]);
    assert_eq!(rounds[1].result, "B");
    assert_eq!(ji::record_rounds(input, "CONTINUE 0 1\n").unwrap().len(), 3);
}

#[test]
fn the_value_table_asks_about_every_state_and_reads_only_its_lines() {
    let input = root().join("tests/data/ji_solver/examples/cap_loses_excess.in");
    let table = ji::table(&read(&input)).unwrap();
    assert_eq!(table.c, 2);
    assert_eq!(table.queries.len(), 9);
    // Lines other than a value and its A:/B: lines are skipped.
    let cells = ji::cells("0.500000000\nA: x 1.000000\nB: y 1.000000\nstate 1 2 whatever\n-1.000000000\nA: z 1.000000\nB: z 1.000000\n");
    assert_eq!(cells.len(), 2);
    assert_eq!((cells[1].value.as_str(), cells[1].a.as_str()), ("-1.000000000", "z 1.000000"));
    // The page's table equals ji_solver's answers to the input's own queries.
    let page = show::page("ji_solver", read(&input).as_bytes(), &solver("ji_solver"), "t").unwrap();
    let expected = sibling(&input, "out");
    for (&(x, y), value) in table.queries.iter().zip(expected.lines()) {
        let cell = format!("[\"{value}\"");
        let nth = x * 3 + y;
        let cells_json = page.split("\"cells\":[").nth(1).unwrap();
        let found = cells_json.split("],[").nth(nth).unwrap();
        assert!(
            found.trim_start_matches('[').starts_with(&cell[1..]),
            "({x},{y}): {found} vs {value}"
        );
    }
}

// ---- in a browser ------------------------------------------------------------

/// Headless Chromium, or `None` (skipped, said on stderr) where it is not
/// installed outside CI.
fn chromium(test: &str) -> Option<PathBuf> {
    common::tool_or_skip(&["chromium", "chromium-browser", "google-chrome"], test)
}

/// The DOM after the page's script ran, opened at `file://PAGE#HASH`,
/// after checking that the script ran to its end (`data-ready` on
/// `<body>`) and reported no error (`data-error` on `<html>`, set by the
/// page's error hook).
fn rendered(browser: &Path, page: &Path, hash: &str) -> String {
    let profile = page.with_extension(format!("profile-{}", hash.replace(['=', ',', '&'], "-")));
    let _ = fs::remove_dir_all(&profile);
    let mut cmd = Command::new(browser);
    cmd.args([
        "--headless",
        "--disable-gpu",
        "--no-sandbox",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--virtual-time-budget=3000",
        "--window-size=1366,768",
        "--dump-dom",
    ]);
    cmd.arg(format!("--user-data-dir={}", profile.display()));
    let out = cmd.arg(format!("file://{}#{hash}", page.display())).output().expect("chromium runs");
    let _ = fs::remove_dir_all(&profile);
    let dom = String::from_utf8_lossy(&out.stdout).into_owned();
    let html = dom.find("<html").map_or("", |at| &dom[at..at + dom[at..].find('>').unwrap()]);
    assert!(!html.contains("data-error"), "{}#{hash}: {html}", page.display());
    let body = dom.find("<body").map(|at| &dom[at..at + dom[at..].find('>').unwrap()]);
    assert!(
        body.is_some_and(|b| b.contains("data-ready=\"1\"")),
        "{}#{hash}: the script did not finish: {body:?}",
        page.display()
    );
    dom
}

/// The opening tag of the element with this id.
fn tag<'a>(dom: &'a str, id: &str) -> &'a str {
    let at = dom.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no #{id}"));
    let start = dom[..at].rfind('<').unwrap();
    let end = at + dom[at..].find('>').unwrap();
    &dom[start..=end]
}

fn attribute<'a>(tag: &'a str, name: &str) -> &'a str {
    let key = format!("{name}=\"");
    let at = tag.find(&key).unwrap_or_else(|| panic!("no {name} in {tag}")) + key.len();
    &tag[at..at + tag[at..].find('"').unwrap()]
}

/// The text of the element with this id (its first text run).
fn text<'a>(dom: &'a str, id: &str) -> &'a str {
    let t = tag(dom, id);
    let at = dom.find(t).unwrap() + t.len();
    &dom[at..at + dom[at..].find('<').unwrap()]
}

fn write_page(dir: &Path, name: &str, problem: &str, input: &str) -> PathBuf {
    let html = show::page(problem, input.as_bytes(), &solver(problem), name).unwrap();
    let file = dir.join(format!("{name}.html"));
    fs::write(&file, html).unwrap();
    file
}

#[test]
fn the_pages_run_in_a_real_browser() {
    let Some(browser) = chromium("the_pages_run_in_a_real_browser") else { return };
    let dir = scratch("browser");
    let data = root().join("tests/data");

    // 猪国杀: the sample at steps 12 and the last, and a game that never ends.
    let sample = data.join("zhuguosha/trace/sample.in");
    let replay = replay_of_fixture(&sample);
    let page = write_page(&dir, "sample", "zhuguosha", &read(&sample));
    let last = replay.events.len();
    for step in [12, last] {
        let dom = rendered(&browser, &page, &format!("step={step}"));
        assert_eq!(text(&dom, "step"), format!("step {step} / {last}"));
        for (p, pig) in replay.states[step].iter().enumerate() {
            let t = tag(&dom, &format!("pig{}", p + 1));
            assert_eq!(attribute(t, "data-hp"), pig.hp.to_string(), "step {step} pig {}", p + 1);
            assert_eq!(attribute(t, "data-hand"), pig.hand, "step {step} pig {}", p + 1);
            assert_eq!(attribute(t, "data-dead"), if pig.dead { "1" } else { "0" });
        }
        if step == last {
            assert_eq!(text(&dom, "result"), sibling(&sample, "out"));
        } else {
            assert_eq!(text(&dom, "now"), "event 12: play 2 N");
            assert!(attribute(tag(&dom, "pig2"), "class").contains("source"));
        }
    }
    let endless = data.join("zhuguosha/trace/never_ends_crossbows_forever.in");
    let replay = replay_of_fixture(&endless);
    let page = write_page(&dir, "endless", "zhuguosha", &read(&endless));
    let last = replay.events.len();
    // Step 10 (`draw 1 Z Z` of turn 3, MP armed): the books at 10, checked
    // against the trace above; past the end the page stays at the last step.
    for (hash, step) in [("step=10", 10), ("step=99999", last)] {
        let dom = rendered(&browser, &page, hash);
        assert_eq!(text(&dom, "step"), format!("step {step} / {last}"));
        assert!(dom.contains("This game never ends"), "{dom}");
        assert!(!dom.contains("id=\"result\""));
        for (p, pig) in replay.states[step].iter().enumerate() {
            let t = tag(&dom, &format!("pig{}", p + 1));
            assert_eq!(attribute(t, "data-hand"), pig.hand, "step {step} pig {}", p + 1);
            assert_eq!(attribute(t, "data-weapon"), if pig.weapon { "1" } else { "0" });
        }
    }
    assert_eq!(replay.states[10][0].hand, "DDDDZZ");

    // Ants: the busy example, an ant that dies, opened at its cell.
    let busy = data.join("ants_battle/examples/busy_explain.in");
    let page = write_page(&dir, "busy", "ants_battle", &read(&busy));
    let dom = rendered(&browser, &page, "weakness&cell=4,5");
    assert_eq!(attribute(tag(&dom, "toggle"), "data-mode"), "weakness");
    let dead =
        sibling(&busy, "out").lines().find(|l| l.starts_with("dead 4 5 ")).unwrap().to_string();
    assert_eq!(text(&dom, "fate"), format!("dies: {dead}"));
    assert!(
        dom.contains("<div id=\"enemies\" class=\"mono\"><div>2 enemies in range")
            || dom.contains("class=\"mono\" id=\"enemies\"><div>2 enemies in range"),
        "{dom}"
    );
    assert_eq!(attribute(tag(&dom, "map"), "data-ready"), "6");

    // 集: the value table at one state, and a refereed record.
    let ji_case = data.join("ji_solver/examples/cap_loses_excess.in");
    let page = write_page(&dir, "ji", "ji_solver", &read(&ji_case));
    let dom = rendered(&browser, &page, "state=1,2");
    assert_eq!(attribute(tag(&dom, "info"), "data-x"), "1");
    assert!(dom.contains("value -0.500000000"), "{dom}");
    assert!(dom.contains("大集  0.500000"));
    let record = data.join("ji_referee/examples/b_wins_by_its_own_list.in");
    let page = write_page(&dir, "record", "ji_referee", &read(&record));
    let dom = rendered(&browser, &page, "");
    assert_eq!(text(&dom, "verdict"), format!("verdict: {}", sibling(&record, "out").trim_end()));
    let rounds = &dom[dom.find("id=\"rounds\"").unwrap()..];
    let rounds = &rounds[..rounds.find("</table>").unwrap()];
    assert_eq!(rounds.matches("<tr").count(), 3, "a header and two rounds");
    // The variant, and which skill beat which, named in English too.
    assert_eq!(text(&dom, "why"), "小波 (small wave) beats 集 (charge) in round 2: B wins");
    let variant = &dom[dom.find("id=\"variant\"").unwrap()..];
    assert_eq!(variant[..variant.find("</table>").unwrap()].matches("<tr").count(), 9);
    assert!(variant.contains("<td>黑洞 (black hole)</td><td>-5</td><td>5</td>"), "{variant}");
    let _ = fs::remove_dir_all(&dir);
}

/// `kit show zhuguosha --rule ID`: the page marks exactly the events where
/// the rule fires (as `kit rules --game` names them), quotes the rule, and
/// every event names its rules; an id outside the catalogue, or a page that
/// marks none, is refused.
#[test]
fn the_zhuguosha_replay_marks_the_events_of_a_rule() {
    let sample = root().join("tests/data/zhuguosha/sample.in");
    let input = read(&sample);
    let zhuguosha = solver("zhuguosha");
    let html = show::marked_page("zhuguosha", input.as_bytes(), &zhuguosha, "s", "like-rebel-mark")
        .unwrap();
    assert!(html.contains("\"rule\":[\"like-rebel-mark\",\"主猪会认为"), "the rule, quoted");
    assert!(
        html.contains("[\"mark 2\",0,1,1,4,[[1,4,\"NNDDD\",0,\"like\",0]],[\"like-rebel-mark\"]]")
    );
    let plain = show::page("zhuguosha", input.as_bytes(), &zhuguosha, "s").unwrap();
    assert!(plain.contains("\"rule\":null"));
    assert!(
        plain.contains("[\"mark 2\",0,1,1,4,[[1,4,\"NNDDD\",0,\"like\",0]],[\"like-rebel-mark\"]]")
    );
    let err = show::marked_page("zhuguosha", input.as_bytes(), &zhuguosha, "s", "nope");
    assert!(err.unwrap_err().to_string().contains("no rule `nope`"));
    let busy = root().join("tests/data/ants_battle/examples/busy.in");
    let ants = show::marked_page(
        "ants_battle",
        &fs::read(busy).unwrap(),
        &solver("ants_battle"),
        "b",
        "focus",
    );
    assert!(ants.unwrap_err().to_string().contains("only the 猪国杀 replay marks rules"));

    let Some(browser) = chromium("the_zhuguosha_replay_marks_the_events_of_a_rule") else { return };
    let dir = scratch("marks");
    let page = dir.join("marked.html");
    fs::write(&page, &html).unwrap();
    let dom = rendered(&browser, &page, "step=8");
    let e = kit::rules::exercised("zhuguosha", input.as_bytes(), &zhuguosha).unwrap();
    let marked: Vec<String> = e.lines("like-rebel-mark").iter().map(|l| l.to_string()).collect();
    assert_eq!(marked, ["7", "8", "11", "14"]);
    let rows: Vec<&str> = dom
        .split("<div class=\"mark")
        .skip(1)
        .map(|r| {
            let at = r.find("data-step=\"").unwrap() + 11;
            &r[at..at + r[at..].find('"').unwrap()]
        })
        .collect();
    assert_eq!(rows, marked, "the marked rows are the rule's trace lines");
    assert!(text(&dom, "rule").starts_with("◆ marks the 4 events where rule like-rebel-mark fires"));
    assert_eq!(text(&dom, "now-rules"), "rules: like-rebel-mark");
    let _ = fs::remove_dir_all(&dir);
}

/// An Ants map with every kind of cell: land, water, food, two hills, an
/// ant that survives, one that dies and one on its own hill.
const EVERY_KIND: &str =
    "rows 4\ncols 6\nplayers 2\nattackradius2 5\nm a.%*0.\nm ..b1A.\nm ......\nm %%..*.\n";

#[test]
fn every_kind_of_ants_cell_can_be_chosen() {
    let Some(browser) = chromium("every_kind_of_ants_cell_can_be_chosen") else { return };
    let dir = scratch("cells");
    let page = write_page(&dir, "kinds", "ants_battle", EVERY_KIND);
    // `rendered` checks that the script ran to its end without an error.
    let bare = [
        ("cell=2,0", "land"),
        ("weakness&cell=2,1", "land"),
        ("cell=0,2", "water"),
        ("cell=0,3", "food"),
        ("cell=0,4", "hill of player 0"),
        ("weakness&cell=1,3", "hill of player 1"),
    ];
    for (hash, kind) in bare {
        let dom = rendered(&browser, &page, hash);
        assert!(text(&dom, "kind").starts_with(kind), "{hash}: {}", text(&dom, "kind"));
        assert!(!dom.contains("id=\"fate\""), "{hash}");
        assert_eq!(attribute(tag(&dom, "map"), "data-ready"), "3");
        // Zoomed in on a cell, the grid parts the cells.
        assert_eq!(attribute(tag(&dom, "map"), "data-grid"), "on");
    }
    let ants = [
        ("cell=0,0", "survives"),
        ("cell=1,2", "dies: dead 1 2 1 focus by 0 0 w=2 enemy_w=1"),
        ("weakness&cell=1,4", "survives"),
    ];
    for (hash, fate) in ants {
        let dom = rendered(&browser, &page, hash);
        assert_eq!(text(&dom, "fate"), fate, "{hash}");
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn every_page_names_things_in_english_and_says_what_it_shows() {
    let Some(browser) = chromium("every_page_names_things_in_english_and_says_what_it_shows")
    else {
        return;
    };
    let dir = scratch("english");
    let data = root().join("tests/data");
    let sample = data.join("zhuguosha/trace/sample.in");
    let page = write_page(&dir, "sample", "zhuguosha", &read(&sample));
    let dom = rendered(&browser, &page, "step=12");
    for words in [
        "A replay of one 猪国杀 game",
        "主猪 MP main pig",
        "忠猪 ZP loyal pig",
        "反猪 FP rebel pig",
    ] {
        assert!(dom.contains(words), "{words}");
    }
    // Pig 2 holds D D D: each card with both names; the event in words.
    let pig2 = &dom[dom.find("id=\"pig2\"").unwrap()..dom.find("id=\"pig3\"").unwrap()];
    assert_eq!(pig2.matches("闪 <span class=\"en\">dodge</span>").count(), 3, "{pig2}");
    assert_eq!(text(&dom, "now-words"), "pig 2 plays N pig invasion");
    assert!(dom.contains("How to read the events") && dom.contains("damage P by S hp H"));

    let common = data.join("ji_solver/examples/common_R2.in");
    let page = write_page(&dir, "common", "ji_solver", &read(&common));
    let dom = rendered(&browser, &page, "state=3,4");
    assert!(text(&dom, "rules").starts_with("R = 2: after 2 rounds the game is a draw; p = 0"));
    assert!(dom.contains("<td>集 (charge)</td>") && dom.contains("中防 (medium shield)"));
    assert!(dom.contains("The value of every state of this 集 game"));

    let page = write_page(&dir, "kinds", "ants_battle", EVERY_KIND);
    let dom = rendered(&browser, &page, "");
    assert!(dom.contains("One attack phase of Ants"));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_traced_referee_gives_both_counts_round_by_round() {
    // A stand-in for a ji_referee with `--trace` (docs/contract.md, "Trace
    // formats"): it prints a hand-written trace of the record below.
    let dir = scratch("referee");
    let fake = dir.join("ji_referee");
    fs::write(
        &fake,
        "#!/bin/sh\ncat >/dev/null\n[ \"$1\" = --trace ] || exit 2\n\
         printf 'round 1 集 集 0 0 next 1 1\\nround 2 集 波 1 1 B\\n' >&2\necho 'B 2'\n",
    )
    .unwrap();
    Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
    let input = "2\n集 1 0 0\n波 -1 1 1 集\n2\n集 集\n集 波\n";
    let page = show::page("ji_referee", input.as_bytes(), &fake, "t").unwrap();
    assert!(
        page.contains(r#""rounds":[[1,"集","集","0","0","next 1 1"],[2,"集","波","1","1","B"]]"#),
        "{page}"
    );
    assert!(page.contains(r#""verdict":"B 2","note":null"#));
    let _ = fs::remove_dir_all(&dir);
}

/// `kit ARGS...` in-process: exit code, stdout, stderr.
fn kit(args: &[&std::ffi::OsStr]) -> (i32, String, String) {
    let args: Vec<std::ffi::OsString> = args.iter().map(|a| a.to_os_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = kit::cli::main(&args, &mut out, &mut err, false);
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (code, text(out), text(err))
}

#[test]
fn kit_show_writes_the_page_or_says_why_not() {
    let dir = scratch("cli");
    let page = dir.join("game.html");
    let sample = root().join("tests/data/zhuguosha/sample.in");
    let solver = solver("zhuguosha");
    let os = |s: &str| std::ffi::OsString::from(s);
    let (code, out, err) = kit(&[
        &os("show"),
        &os("zhuguosha"),
        sample.as_os_str(),
        &os("--out"),
        page.as_os_str(),
        &os("--solver"),
        solver.as_os_str(),
    ]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out, format!("wrote {}\n", page.display()));
    let html = read(&page);
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("\"kind\":\"zhuguosha\""));
    // Nothing is fetched: no address, no external script, style or font.
    for needle in ["http://", "https://", "src=", "@import", "url("] {
        assert!(!html.contains(needle), "{needle}");
    }
    let refused = |args: &[&std::ffi::OsStr], message: &str| {
        let (code, out, err) = kit(args);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        assert!(err.starts_with("kit: ") && err.contains(message), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    };
    refused(&[&os("show"), &os("zhuguosha")], "usage: kit show PROBLEM CASE.in");
    refused(&[&os("show"), &os("chess"), sample.as_os_str()], "unknown problem `chess`");
    refused(&[&os("show"), &os("zhuguosha"), &os("/no/such.in")], "cannot read /no/such.in");
    refused(
        &[&os("show"), &os("zhuguosha"), sample.as_os_str(), &os("--colour")],
        "unknown option `--colour`",
    );
    refused(
        &[&os("show"), &os("zhuguosha"), sample.as_os_str(), &os("--solver"), &os("/no/solver")],
        "--solver /no/solver: no such file",
    );
    // A case our solver refuses: its own message.
    let bad = dir.join("bad.in");
    fs::write(&bad, "1 1\nMP K K K K\nK\n").unwrap();
    refused(
        &[&os("show"), &os("zhuguosha"), bad.as_os_str(), &os("--solver"), solver.as_os_str()],
        "zhuguosha refused the case (exit 2): zhuguosha: line 1",
    );
    assert!(!dir.join("bad.show.html").exists(), "no half page is left behind");
    // Without --out, the page goes beside the case (`.gitignore` covers
    // `*.show.html`: no untracked file in the repository).
    let case = dir.join("sample.in");
    fs::copy(&sample, &case).unwrap();
    let (code, out, _) = kit(&[
        &os("show"),
        &os("zhuguosha"),
        case.as_os_str(),
        &os("--solver"),
        solver.as_os_str(),
    ]);
    let beside = dir.join("sample.show.html");
    assert_eq!((code, out), (0, format!("wrote {}\n", beside.display())));
    assert!(read(&beside).contains("\"kind\":\"zhuguosha\""));
    let ignored = read(&root().join(".gitignore"));
    assert!(ignored.lines().any(|l| l == "*.show.html"), "{ignored}");
    let _ = fs::remove_dir_all(&dir);
}

/// A variant with one lasting effect (b meeting b takes b): each side has
/// lost nothing or b, so the value page has 2 x 2 tables of 2 x 2 states.
const ONE_EFFECT: &str =
    "2\na 1 0 0\nb -1 1 1 a\nlasting 1\nb 1 b 1 b\n1 0\n2\n0 0\n1 1 lost 0 1 b\n";

/// A stand-in for a ji_solver that plays lasting effects: it reads its
/// input and answers `n` states, the k-th with value 0.k (and strategies).
fn fake_solver(dir: &Path, n: usize) -> PathBuf {
    let fake = dir.join("ji_solver");
    let script = format!(
        "#!/bin/sh\ncat > \"$0.in\"\ni=0\nwhile [ $i -lt {n} ]; do\n  \
         printf '0.%03d000000\\nA: a 1.000000\\nB: b 1.000000\\n' $i\n  i=$((i+1))\ndone\n"
    );
    fs::write(&fake, script).unwrap();
    Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
    fake
}

#[test]
fn the_value_page_has_one_table_per_combination_of_lost_skills() {
    let table = ji::table(ONE_EFFECT).unwrap();
    let none: Vec<String> = Vec::new();
    let b = vec!["b".to_string()];
    assert_eq!(
        table.lost,
        [
            [none.clone(), none.clone()],
            [none.clone(), b.clone()],
            [b.clone(), none],
            [b.clone(), b]
        ]
    );
    assert_eq!(
        (table.c, table.queries.clone(), table.query_tables.clone()),
        (1, vec![(0, 0), (1, 1)], vec![0, 1])
    );
    // The solver is asked about every state of every table, in order.
    let asked = table.every_state_input();
    let head = "2\na 1 0 0\nb -1 1 1 a\nlasting 1\nb 1 b 1 b\n1 0\n16\n0 0\n0 1\n1 0\n1 1\n";
    assert!(asked.starts_with(head), "{asked}");
    assert!(asked.contains("\n1 1\n0 0 lost 0 1 b\n") && asked.ends_with("\n1 1 lost 1 b 1 b\n"));
    let dir = scratch("lasting");
    let fake = fake_solver(&dir, 16);
    let html = show::page("ji_solver", ONE_EFFECT.as_bytes(), &fake, "t").unwrap();
    assert_eq!(fs::read_to_string(dir.join("ji_solver.in")).unwrap(), asked);
    assert!(html.contains(r#""lost":[[[],[]],[[],["b"]],[["b"],[]],[["b"],["b"]]]"#), "{html}");
    assert!(html.contains(r#""queries":[[0,0,0],[1,1,1]]"#));
    // A solver that answers fewer states than asked is refused.
    let short = fake_solver(&dir, 4);
    let err = show::page("ji_solver", ONE_EFFECT.as_bytes(), &short, "t").unwrap_err();
    assert!(err.to_string().contains("answered 4 of the 16 states"), "{err}");
    // In a browser: four tables, one drawn at a time, the selector's; the
    // last one's state (1, 0) is the 15th state.
    if let Some(browser) = chromium("the_value_page_has_one_table_per_combination_of_lost_skills") {
        let page = dir.join("lasting.html");
        fs::write(&page, &html).unwrap();
        let dom = rendered(&browser, &page, "state=1,0,3");
        assert_eq!(attribute(tag(&dom, "heat"), "data-t"), "3");
        assert_eq!(dom.matches("class=\"grid heat\"").count(), 1, "{dom}");
        assert_eq!(dom.matches("<option ").count(), 4, "{dom}");
        assert!(dom.contains("table 4 of 4: A has lost b; B has lost b"), "{dom}");
        assert_eq!(attribute(tag(&dom, "info"), "data-t"), "3");
        assert!(dom.contains("value 0.014000000"), "{dom}");
        assert!(dom.contains("A has lost b; B has lost b"));
    }
    let _ = fs::remove_dir_all(&dir);
}

/// With our ji_solver: a breakthrough's four tables hold the values the
/// solver gives the input's own queries, each in its table.
#[test]
fn the_lost_skill_tables_equal_the_solvers_answers() {
    let input = root().join("tests/data/ji_solver/lasting/toy_breakthrough_p10.in");
    let table = ji::table(&read(&input)).unwrap();
    assert_eq!((table.c, table.lost.len()), (1, 4));
    assert_eq!(table.query_tables, [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
    let page = show::page("ji_solver", read(&input).as_bytes(), &solver("ji_solver"), "t").unwrap();
    let cells_json = page.split("\"cells\":[").nth(1).unwrap();
    let cells: Vec<&str> = cells_json.split("],[").collect();
    let expected = sibling(&input, "out");
    for ((&(x, y), &t), value) in
        table.queries.iter().zip(&table.query_tables).zip(expected.lines())
    {
        let found = cells[t * 4 + x * 2 + y].trim_start_matches('[');
        assert!(
            found.starts_with(&format!("\"{value}\"")),
            "({x},{y}) in table {t}: {found} vs {value}"
        );
    }
}

/// A record with a breakthrough: the page lists the lasting effect, the
/// round that took a skill says so, and the verdict's round is the one
/// where B plays its lost defence.
#[test]
fn the_record_page_shows_lasting_effects_and_what_each_round_took() {
    let input = root().join("tests/data/ji_referee/lasting/breakthrough_trace.in");
    let trace = sibling(&input, "err");
    let rounds = ji::rounds(&trace).unwrap();
    assert_eq!(rounds[2].result, "next 0 2 taken B defence");
    assert_eq!(rounds[3].result, "next 1 3");
    let page =
        show::page("ji_referee", read(&input).as_bytes(), &solver("ji_referee"), "t").unwrap();
    assert!(page.contains(r#""lasting":[["breakthrough2",["defence"],["defence"]]]"#), "{page}");
    assert!(page.contains(r#"[3,"breakthrough2","defence","2","2","next 0 2 taken B defence"]"#));
    let Some(browser) = chromium("the_record_page_shows_lasting_effects_and_what_each_round_took")
    else {
        return;
    };
    let dir = scratch("lasting-record");
    let file = dir.join("record.html");
    fs::write(&file, &page).unwrap();
    let dom = rendered(&browser, &file, "");
    assert!(dom.contains("<td>breakthrough2</td><td>defence</td><td>defence</td>"), "{dom}");
    assert!(dom.contains("go on with A 0, B 2; B loses defence"), "{dom}");
    assert!(text(&dom, "why").contains("without enough 集 or one already lost"), "{dom}");
    let _ = fs::remove_dir_all(&dir);
}

/// The docs' showcase, the common variant with a breakthrough per defence:
/// 8 lost sets a side, 64 tables of 6 x 6 states, all answered by our
/// ji_solver, each query's value in its table; the browser draws one table
/// at a time, the one the selector (or the address) names.
#[test]
fn the_showcase_page_has_every_table_one_at_a_time() {
    let input =
        root().join("tests/data/ji_solver/lasting/common_breakthrough_per_defence_unlimited.in");
    let table = ji::table(&read(&input)).unwrap();
    assert_eq!(
        (table.c, table.lost_sets, table.every_pair, table.lost.len()),
        (5, Some(8), true, 64)
    );
    let html = show::page("ji_solver", read(&input).as_bytes(), &solver("ji_solver"), "t").unwrap();
    let cells_json = html.split("\"cells\":[").nth(1).unwrap();
    let cells: Vec<&str> = cells_json.split("],[").collect();
    assert_eq!(cells.len(), 64 * 36);
    let expected = sibling(&input, "out");
    let values: Vec<&str> = expected.lines().filter(|l| l.parse::<f64>().is_ok()).collect();
    assert_eq!(values.len(), table.queries.len());
    for ((&(x, y), &t), value) in table.queries.iter().zip(&table.query_tables).zip(values) {
        let found = cells[t * 36 + x * 6 + y].trim_start_matches('[');
        assert!(found.starts_with(&format!("\"{value}\"")), "({x},{y}) in {t}: {found} vs {value}");
    }
    // The command, as a user types it: a page, exit 0.
    let dir = scratch("showcase");
    let out = dir.join("showcase.html");
    let kit = Command::new(env!("CARGO_BIN_EXE_kit"))
        .args(["show", "ji_solver"])
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(kit.status.code(), Some(0), "{}", String::from_utf8_lossy(&kit.stderr));
    if let Some(browser) = chromium("the_showcase_page_has_every_table_one_at_a_time") {
        let dom = rendered(&browser, &out, "state=2,3,9");
        assert_eq!(dom.matches("<option ").count(), 64);
        assert_eq!(dom.matches("class=\"grid heat\"").count(), 1);
        assert_eq!(attribute(tag(&dom, "heat"), "data-t"), "9");
        let state = cells[9 * 36 + 2 * 6 + 3].trim_start_matches('[');
        let value = &state[1..state[1..].find('"').unwrap() + 1];
        assert!(dom.contains(&format!("value {value}")), "{value}: {dom}");
        assert!(dom.contains("A has lost 小防; B has lost 小防"), "{dom}");
    }
    let _ = fs::remove_dir_all(&dir);
}

/// Past what one page holds or the solver answers, the page is still made:
/// 7 skills that each take the one they meet (128 lost sets a side, 16,384
/// tables) get the tables of the input's two queries, said on the page;
/// where the solver answers not even those, the page says why, no table.
#[test]
fn too_many_tables_give_the_queries_tables_never_a_refusal() {
    let lasting = root().join("tests/data/ji_solver/lasting");
    // Not even the input's one query is answered (16,384 pairs reachable).
    let too_many = read(&lasting.join("too_many_lost_sets.in"));
    let html = show::page("ji_solver", too_many.as_bytes(), &solver("ji_solver"), "t").unwrap();
    assert!(
        html.contains(
            "\"note\":\"not answered (ji_solver exit 3): ji_solver: the variant is too large"
        ),
        "{html}"
    );
    assert!(html.contains("\"cells\":[]"), "{html}");
    // Two queries whose sides have lost nearly everything: two tables.
    let fixture_text = read(&lasting.join("lost_sets_3432.in"));
    let variant = &fixture_text[..fixture_text.find("0 0\n1\n0 0").unwrap()];
    let all = "6 s1 s2 s3 s4 s5 s6";
    let input = format!("{variant}0 0\n2\n0 0 lost {all} {all}\n0 0 lost 5 s2 s3 s4 s5 s6 {all}\n");
    let table = ji::table(&input).unwrap();
    assert_eq!((table.lost_sets, table.every_pair), (Some(128), true));
    let html = show::page("ji_solver", input.as_bytes(), &solver("ji_solver"), "t").unwrap();
    let lost = r#""lost":[[["s1","s2","s3","s4","s5","s6"],["s1","s2","s3","s4","s5","s6"]],[["s2","s3","s4","s5","s6"],["s1","s2","s3","s4","s5","s6"]]],"lost_sets":128,"every_pair":false"#;
    assert!(html.contains(lost), "{html}");
    assert!(html.contains(r#""queries":[[0,0,0],[0,0,1]]"#), "{html}");
    assert!(html.contains(r#""cells":[["0.000000000","#), "{html}");
    if let Some(browser) = chromium("too_many_tables_give_the_queries_tables_never_a_refusal") {
        let dir = scratch("few-tables");
        let page = dir.join("few.html");
        fs::write(&page, &html).unwrap();
        let dom = rendered(&browser, &page, "state=0,0,1");
        assert!(
            text(&dom, "few-tables").starts_with("128 lost sets a side make more tables"),
            "{dom}"
        );
        assert_eq!(dom.matches("<option ").count(), 2);
        assert!(dom.contains("value 1.000000000"), "{dom}");
        let _ = fs::remove_dir_all(&dir);
    }
}

/// A C past 200 (the format takes up to 1000) is drawn, not refused: the
/// states 0..=200 of each table, said on the page; a query past them is
/// answered by the solver but not framed.
#[test]
fn a_count_past_200_is_drawn_in_part() {
    let input = "2\na 1 0 0\nb -250 250 1 a\n10 0\n2\n0 0\n250 3\n";
    let table = ji::table(input).unwrap();
    assert_eq!((table.c, table.game_c, table.queries.clone()), (200, 250, vec![(0, 0), (250, 3)]));
    assert!(table
        .every_state_input()
        .starts_with("2\na 1 0 0\nb -250 250 1 a\n10 0\n40401\n0 0\n"));
    let html = show::page("ji_solver", input.as_bytes(), &solver("ji_solver"), "t").unwrap();
    assert!(html.contains("\"c\":200,\"game_c\":250"), "{html}");
    if let Some(browser) = chromium("a_count_past_200_is_drawn_in_part") {
        let dir = scratch("past-200");
        let page = dir.join("big.html");
        fs::write(&page, &html).unwrap();
        let dom = rendered(&browser, &page, "");
        assert!(
            text(&dom, "part").starts_with("C = 250: the page draws the states 0..200"),
            "{dom}"
        );
        assert_eq!(dom.matches("class=\"query").count(), 1, "only (0, 0) is framed");
        let _ = fs::remove_dir_all(&dir);
    }
}
