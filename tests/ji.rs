//! Integration tests of the 集 trainer `ji`: the archive (round trip,
//! atomic save, refusal of a corrupt archive or one of another variant) and
//! `p` with bad moves on a custom variant. Each test runs in its own
//! temporary directory. The exploitability target of a default `t` is
//! checked by bench/ji.sh, not here (it takes about 7 s of CPU).

mod common;

use assert_cmd::Command;
use kit::scratch::Scratch;
use std::fs;
use std::path::Path;

/// A fresh, empty directory for one test, removed when the test ends.
fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("ji-{name}"))
}

/// Runs `ji` in `dir` with `args` and the command script `input`:
/// (exit code, stdout, stderr).
fn ji(dir: &Path, args: &[&str], input: &str) -> (i32, String, String) {
    let out = Command::cargo_bin("ji")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The `s` table in a transcript (the lines after its header).
fn table(stdout: &str) -> Vec<String> {
    let lines: Vec<&str> = stdout.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("best AI")).expect("an `s` table");
    lines[at + 1..].iter().take(36).map(|l| l.to_string()).collect()
}

const ROCK_PAPER: &str = "4\n1 1 0 1 -1\n-1 0 0 0\n+ -1 1 2 1 -1\n🌊 -2 2 1 +\n";

#[test]
fn archive_round_trip_and_resumed_training() {
    let dir = scratch("roundtrip");
    let args = ["--seed", "4", "--archive", "a.txt"];
    let (code, first, _) = ji(&dir, &args, "t 2\ns\n");
    assert_eq!(code, 0);
    assert!(first.contains("saved 'a.txt'"));
    let saved = fs::read(dir.join("a.txt")).unwrap();
    assert!(saved.starts_with(b"ji-archive 1\nvariant 8\n"));
    // Restart: the same table, and the file is not rewritten without `t`.
    let (code, again, _) = ji(&dir, &args, "s\nq\n");
    assert_eq!(code, 0);
    assert!(again.contains("archive 'a.txt': generation 2, population 40"));
    // The first screen says the AI is trained, with the exploitability the
    // last training line gave (the fitness is recomputed on load).
    let trained = first.lines().find(|l| l.starts_with("generation 2:")).unwrap();
    let expl = trained.rsplit(' ').next().unwrap();
    let greeting =
        format!("the AI is trained: generation 2; exploitability {expl} (0 is unbeatable)");
    assert_eq!(again.lines().nth(2), Some(greeting.as_str()), "{again}");
    assert_eq!(table(&first), table(&again));
    assert_eq!(fs::read(dir.join("a.txt")).unwrap(), saved);
    // Training resumed from the archive equals training in one session.
    let (_, resumed, _) = ji(&dir, &args, "t 1\ns\n");
    let other = scratch("roundtrip-one-session");
    let (_, straight, _) = ji(&other, &args, "t 3\ns\n");
    assert_eq!(table(&resumed), table(&straight));
    assert_eq!(fs::read(dir.join("a.txt")).unwrap(), fs::read(other.join("a.txt")).unwrap());
}

#[test]
fn save_is_atomic() {
    let dir = scratch("atomic");
    let args = ["--seed", "1", "--archive", "a.txt"];
    ji(&dir, &args, "t 1\n");
    let names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["a.txt"], "no temporary file is left behind");
    // A save that cannot complete (the temporary file cannot be created)
    // leaves the previous archive intact and the session goes on.
    let before = fs::read(dir.join("a.txt")).unwrap();
    fs::create_dir(dir.join("a.txt.tmp")).unwrap();
    let (code, out, err) = ji(&dir, &args, "t 1\nh\n");
    assert_eq!(code, 0);
    assert!(out.contains("archive NOT saved") && out.contains("commands, one per line"));
    assert!(err.starts_with("ji: a.txt: cannot save the archive"), "{err}");
    assert_eq!(fs::read(dir.join("a.txt")).unwrap(), before);
}

#[test]
fn corrupt_archive_is_refused_and_left_alone() {
    let dir = scratch("corrupt");
    let args = ["--seed", "1", "--archive", "a.txt"];
    ji(&dir, &args, "t 1\n");
    let good = fs::read_to_string(dir.join("a.txt")).unwrap();
    let cases = [
        ("garbage", "hello\n".to_string(), "ji: a.txt: line 1: not a ji archive"),
        ("truncated", good[..good.len() - 200].to_string(), "ji: a.txt: line "),
        ("bad weight", good.replacen("\n0 1 ", "\n0 1 x", 1), "bad weight 'x"),
        ("no end", good.replace("end\n", ""), "archive ends early"),
    ];
    for (what, text, expected) in cases {
        fs::write(dir.join("a.txt"), &text).unwrap();
        let (code, out, err) = ji(&dir, &args, "t 1\nq\n");
        assert_eq!(code, 2, "{what}");
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
        assert!(err.contains(expected), "{what}: {err}");
        assert!(out.is_empty(), "{what}: nothing runs: {out}");
        assert_eq!(fs::read_to_string(dir.join("a.txt")).unwrap(), text, "{what}: untouched");
    }
}

#[test]
fn archive_of_another_variant_is_refused() {
    let dir = scratch("other-variant");
    fs::write(dir.join("v.txt"), ROCK_PAPER).unwrap();
    ji(&dir, &["--seed", "1"], "t 1\n");
    let before = fs::read(dir.join("archive")).unwrap();
    let (code, _, err) = ji(&dir, &["--variant", "v.txt"], "t 1\n");
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "ji: archive: line 2: archive is for another variant (8 skills, this variant has 4)\n"
    );
    assert_eq!(fs::read(dir.join("archive")).unwrap(), before);
}

#[test]
fn malformed_variant_is_refused_with_the_skill_named() {
    let dir = scratch("bad-variant");
    fs::write(dir.join("v.txt"), "2\nA 0 0 1 B\nB -2 1 0\n").unwrap();
    let (code, out, err) = ji(&dir, &["--variant", "v.txt"], "q\n");
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(
        err,
        "ji: v.txt: line 3: skill `B`: req 1 is below its cost (req must be at least max(0, -delta) = 2)\n"
    );
    assert!(!dir.join("archive").exists());
}

#[test]
fn play_refuses_bad_moves_on_a_custom_variant() {
    // Names that look like numbers or are emoji: matched by name only.
    let dir = scratch("play");
    fs::write(dir.join("v.txt"), ROCK_PAPER).unwrap();
    let args = ["--variant", "v.txt", "--seed", "3"];
    let (code, out, err) = ji(&dir, &args, "p\n🌊\n3\n-1\n");
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("round 1")).collect();
    assert_eq!(
        lines,
        [
            "round 1: you 0 集, AI 0 集; you may play:",
            "  1 1, 2 -1",
            "refused: 🌊 needs 2 集, you have 0; try again",
            "refused: 3 is not a number in the list (1 to 2); try again",
            // The AI at (0, 0): 1 beats -1 and gains, so it plays 1.
            "you: -1, AI: 1 -> the AI wins (1 beats -1)",
            "game over after 1 round: the AI wins. p plays again, h for help",
        ]
    );
    // The rules table lines up the emoji (two columns wide).
    assert!(out.contains("\n🌊     -      costs 2  2      +"), "{out}");
}

#[test]
fn bad_train_arguments_are_hints_not_errors() {
    // Kept out of the fixtures: a fuzzed `t 0` could become a long `t`.
    let dir = scratch("t-args");
    let (code, out, _) = ji(&dir, &["--seed", "1"], "t abc\nt 0\nt 100001\nt 1 2\nq\n");
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().skip(4).collect();
    assert_eq!(
        lines,
        [
            "t: G must be an integer 1..=100000",
            "t: G must be an integer 1..=100000",
            "t: G must be an integer 1..=100000",
            "t takes at most one number: t [G]",
        ]
    );
    assert!(!dir.join("archive").exists(), "nothing trained, nothing saved");
}

#[cfg(unix)]
#[test]
fn a_non_utf8_argument_is_refused_not_a_panic() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = scratch("non-utf8");
    let out = Command::cargo_bin("ji")
        .unwrap()
        .current_dir(&dir)
        .arg(OsStr::from_bytes(b"--x\xff"))
        .write_stdin("q\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "ji: an argument is not valid UTF-8 (see --help)\n"
    );
    // A non-UTF-8 path is a path like any other.
    let out = Command::cargo_bin("ji")
        .unwrap()
        .current_dir(&dir)
        .args(["--seed", "1", "--archive"])
        .arg(OsStr::from_bytes(b"a\xff"))
        .write_stdin("q\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("no archive 'a\u{FFFD}'"));
}

#[test]
fn exit_codes_one_per_kind_of_failure() {
    let dir = scratch("exit-codes");
    // An unreadable variant file: a bad value of --variant, exit 2, one line.
    let (code, out, err) = ji(&dir, &["--variant", "missing.txt"], "q\n");
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.starts_with("ji: bad value 'missing.txt' for --variant: cannot read it: "),
        "{err}"
    );
    assert!(err.ends_with(" (see --help)\n"), "{err}");
    assert_eq!(err.lines().count(), 1);
    // Unreadable commands (stdin is a directory): exit 1, one line.
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("ji"))
        .current_dir(&dir)
        .args(["--seed", "1"])
        .stdin(fs::File::open(&dir).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("ji: cannot read the input: "), "{err}");
    assert_eq!(err.lines().count(), 1);
    // Bad arguments: exit 2, one wording per kind (docs/contract.md).
    let refused = [
        (&["--x"][..], "ji: unknown option '--x' (see --help)\n"),
        (&["x"][..], "ji: unexpected argument 'x' (see --help)\n"),
        (&["--seed"][..], "ji: option '--seed' needs a value (see --help)\n"),
        (
            &["--seed", "-1"][..],
            "ji: bad value '-1' for --seed: not an integer 0..2^64 (see --help)\n",
        ),
    ];
    for (args, want) in refused {
        let (code, out, err) = ji(&dir, args, "q\n");
        assert_eq!((code, out.as_str(), err.as_str()), (2, "", want), "{args:?}");
    }
    // `--help` anywhere prints the help and exits 0.
    for args in [&["--x", "--help"][..], &["--seed", "1", "-h"][..], &["--seed", "--help"][..]] {
        let (code, out, err) = ji(&dir, args, "");
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.starts_with("ji: play 集"), "{args:?}: {out}");
    }
    // An unwritable stdout: exit 1.
    if std::path::Path::new("/dev/full").exists() {
        use std::io::Write;
        use std::process::Stdio;
        let full = fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("ji"))
            .current_dir(&dir)
            .args(["--seed", "1"])
            .stdin(Stdio::piped())
            .stdout(full)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(b"h\nq\n").unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("ji: cannot write the output: "), "{err}");
    }
}

#[test]
fn nothing_playable_at_zero_is_said_for_every_command() {
    // No skill needs 0 集: nobody can move at (0, 0), a draw at once. The
    // expected lines are worked out by hand from the rules: every P(draw)
    // and the game value follow from (0, 0) having no move; the table's
    // columns are each as wide as their widest cell plus two spaces.
    let dir = scratch("nothing-at-zero");
    fs::write(dir.join("v.txt"), "2\nA 1 1 0\nB -1 1 1 A\n").unwrap();
    let out = Command::cargo_bin("ji")
        .unwrap()
        .current_dir(&dir)
        .args(["--variant", "v.txt", "--seed", "1"])
        .write_stdin("p\nt 2\nr\ne\n")
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(out.stderr.is_empty());
    let nothing = "no skill needs 0 集, so neither side can move at 0 集";
    let lines: Vec<&str> = stdout.lines().collect();
    let want = [
        "variant: 2 skills; the AI's table: 4 states, each side's 集 0 to 1 (or more)",
        "no archive 'archive': a fresh random population of 40",
        "the AI is untrained (generation 0); exploitability 0.000000 (0 is unbeatable)",
        &format!("nothing to play or train: {nothing}"),
        "r shows the rules, h lists the commands",
        &format!("nothing to play: {nothing}"),
        &format!("nothing to train: {nothing}"),
        "rules: you and the AI play a skill at the same time. If one beats the",
        "other, its player wins; otherwise both pay or gain 集 (charge) and play",
        "goes on. Both start with 0 集; a skill needs `needs` 集 or more to play.",
        "skill  alias  集       needs  beats",
        "A      -      gains 1  1      -",
        "B      -      costs 1  1      A",
        "exact evaluation of the best AI (generation 0) from (0, 0):",
        "game value at (0, 0): 0.000000",
        "vs uniform AI: P(win) 0.000000, P(lose) 0.000000, P(draw) 1.000000",
        "vs equilibrium: P(win) 0.000000, P(lose) 0.000000, P(draw) 1.000000",
        "uniform AI's exploitability: 0.000000",
        "equilibrium's exploitability: 0.000000",
        "exploitability: 0.000000",
    ];
    assert_eq!(lines, want);
    assert!(!dir.join("archive").exists(), "nothing trained, nothing saved");
}

/// The bobozan anchor's breakthrough variant with k = 4 (an attack and a
/// breakthrough that takes defence), by its path in the repository.
fn breakthrough_variant() -> String {
    let path = common::root().join("tests/data/ji_solver/bobozan/k4_a1_b2.variant");
    path.display().to_string()
}

/// The lines after the `s` table's header, to the end of the transcript.
fn whole_table(stdout: &str) -> Vec<&str> {
    stdout.lines().skip_while(|l| !l.starts_with("best AI")).skip(1).collect()
}

/// The number after `exploitability: ` on the transcript's last such line.
fn exploitability(stdout: &str) -> f64 {
    let line = stdout.lines().rev().find(|l| l.starts_with("exploitability: "));
    line.and_then(|l| l[16..].parse().ok()).expect("an exploitability line")
}

#[test]
fn a_breakthrough_variant_trains_and_reports_exploitability() {
    let dir = scratch("breakthrough");
    let variant = breakthrough_variant();
    let args = ["--seed", "2", "--archive", "a.txt", "--variant", &variant];
    let (code, out, err) = ji(&dir, &args, "e\nt 3\ne\ns\n");
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(out.starts_with(
        "variant: 5 skills; the AI's table: 100 states, each side's 集 0 to 4 (or more),\n  \
         4 pairs of lost sets\n"
    ));
    let untrained = exploitability(&out[..out.find("training 3").unwrap()]);
    let trained = exploitability(&out);
    assert!(0.0 < trained && trained < untrained, "{untrained} then {trained}");
    assert!(out.contains("generation 3: best fitness "), "{out}");
    assert!(out.contains("\nequilibrium's exploitability: 0.0000"), "{out}");
    let table = whole_table(&out);
    assert_eq!(table[0], "and the skills each side has lost (own / opponent's)");
    let states: Vec<&&str> = table.iter().filter(|l| l.starts_with('(')).collect();
    assert_eq!(states.len(), 100, "{table:?}");
    assert!(states[0].starts_with("(0, 0, none / none): "), "{table:?}");
    assert!(states[99].starts_with("(4, 4, defence / defence): "), "{table:?}");
    // The archive names the lost sets, and a new session reads it back.
    let saved = fs::read_to_string(dir.join("a.txt")).unwrap();
    assert!(saved.starts_with("ji-archive 2\nvariant 5\n"), "{saved}");
    assert!(saved.contains("\n1 0 lost 0 1 defence "), "{saved}");
    let (code, again, _) = ji(&dir, &args, "e\ns\n");
    assert_eq!(code, 0);
    assert!(again.contains("archive 'a.txt': generation 3, population 40"), "{again}");
    assert_eq!(exploitability(&again), trained);
    assert_eq!(whole_table(&again), table);
}

#[test]
fn an_archive_of_the_previous_trainer_still_loads() {
    let dir = scratch("version-1");
    let old = fs::read(common::root().join("tests/data/ji/archive_version_1.txt")).unwrap();
    fs::write(dir.join("old.txt"), &old).unwrap();
    fs::write(dir.join("v.txt"), "3\nenergy 1 0 0\ndefence 0 0 0\nattack -1 1 1 energy\n").unwrap();
    let (code, out, err) = ji(&dir, &["--variant", "v.txt", "--archive", "old.txt"], "e\n");
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.contains("archive 'old.txt': generation 1, population 40"), "{out}");
    assert_eq!(fs::read(dir.join("old.txt")).unwrap(), old, "read, not rewritten");
}

#[test]
fn too_many_lost_sets_are_refused_in_the_trainers_words() {
    let dir = scratch("too-many-losses");
    let mut text = "8\nw 0 0 0\n".to_string();
    text += &(0..7).map(|i| format!("a{i} 0 0 0\n")).collect::<String>();
    text += "lasting 7\n";
    text += &(0..7).map(|i| format!("w 1 a{i} 1 a{i}\n")).collect::<String>();
    fs::write(dir.join("v.txt"), text).unwrap();
    let (code, out, err) = ji(&dir, &["--variant", "v.txt"], "q\n");
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "ji: v.txt: lasting effects: the AI's table would need at least 4097 states ((C + 1)² = \
         1 pairs of counts x at least 4097 pairs of lost sets): the trainer handles at most 4096\n"
    );
}

/// A program in a real terminal: a tmux session 80 columns wide on a
/// private server (-L), so that nothing else's sessions are touched,
/// driven by keys as a person types them.
#[cfg(unix)]
struct Terminal {
    socket: String,
    dir: std::path::PathBuf,
}

#[cfg(unix)]
impl Terminal {
    /// Runs the shell command `shell` in `dir`, in a new session `name`.
    fn start(name: &str, dir: &std::path::Path, shell: &str) -> Terminal {
        let socket = format!("ji-test-{name}-{}", std::process::id());
        let terminal = Terminal { socket, dir: dir.to_path_buf() };
        terminal.tmux(&["new-session", "-d", "-s", "ji", "-x", "80", "-y", "50", shell]);
        terminal
    }

    /// `ji ARGS` (shell words) in `dir`, then its exit code on a line of
    /// its own.
    fn ji(name: &str, dir: &std::path::Path, args: &str) -> Terminal {
        let bin = assert_cmd::cargo::cargo_bin("ji");
        Terminal::start(name, dir, &format!("'{}' {args}; echo EXIT=$?; sleep 60", bin.display()))
    }

    fn tmux(&self, args: &[&str]) -> String {
        let out = std::process::Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .current_dir(&self.dir)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The screen, wrapped lines joined (-J), so a line wider than the
    /// pane shows as one long line.
    fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-t", "ji", "-p", "-J", "-S", "-200"])
    }

    /// Waits for `text` on screen (a bound against a hang, not a timing).
    fn wait_for(&self, text: &str) -> String {
        for _ in 0..400 {
            let s = self.screen();
            if s.contains(text) {
                return s;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("never saw {text:?} on screen:\n{}", self.screen());
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "ji"];
        args.extend_from_slice(keys);
        self.tmux(&args);
    }
}

#[cfg(unix)]
impl Drop for Terminal {
    fn drop(&mut self) {
        // The server's socket file may outlive it: removed too.
        let socket = self.tmux(&["display-message", "-p", "#{socket_path}"]);
        self.tmux(&["kill-server"]);
        let _ = fs::remove_file(socket.trim_end());
    }
}

/// `ji` in a real terminal. Without tmux it is skipped with a note on
/// stderr, except in CI, which installs tmux (`common::tool_or_skip`).
#[cfg(unix)]
#[test]
fn a_session_in_a_real_terminal() {
    if common::tool_or_skip(&["tmux"], "a_session_in_a_real_terminal").is_none() {
        return;
    }
    let dir = scratch("tmux");
    let term = Terminal::ji("session", &dir, "--seed 7 --archive a.txt");
    term.wait_for("ji> ");
    term.keys(&["p", "Enter"]);
    term.wait_for("your skill> ");
    term.keys(&["Up", "Enter"]);
    term.wait_for("refused: '\\x1b[A'");
    // An English name, typed with its space: known, but not affordable yet.
    term.keys(&["big shield", "Enter"]);
    term.wait_for("refused: 大防 big shield needs 1 集, you have 0");
    term.keys(&["q", "Enter"]);
    term.wait_for("you gave up");
    term.keys(&["t 5", "Enter"]);
    term.wait_for("saved 'a.txt'");
    term.keys(&["C-d"]);
    let s = term.wait_for("EXIT=0");
    // Training was one line redrawn: only its last state is on screen.
    assert!(s.contains("\ngeneration 5: best fitness "), "{s}");
    assert!(!s.contains("generation 1:"), "{s}");
    // Ctrl-D at the prompt ended the session on a line of its own.
    assert!(s.contains("ji> \nEXIT=0"), "{s}");
    assert_fits_80_columns(&s);
}

/// A breakthrough variant in a real terminal: the round that takes your
/// defence says so, the next round shows each side's lost skills, and
/// typing the lost skill is refused. The AI's moves follow `--seed 1`.
#[cfg(unix)]
#[test]
fn lost_skills_on_a_real_terminal() {
    if common::tool_or_skip(&["tmux"], "lost_skills_on_a_real_terminal").is_none() {
        return;
    }
    let dir = scratch("tmux-lost");
    let args = format!("--seed 1 --archive a.txt --variant '{}'", breakthrough_variant());
    let term = Terminal::ji("lost", &dir, &args);
    term.wait_for("ji> ");
    term.keys(&["p", "Enter"]);
    for (round, key) in [(1, "energy"), (2, "energy"), (3, "defence"), (4, "defence")] {
        term.wait_for(&format!("round {round}: "));
        term.keys(&[key, "Enter"]);
    }
    term.wait_for("round 5: ");
    term.keys(&["defence", "Enter"]);
    term.wait_for("refused: defence is lost");
    term.keys(&["q", "Enter"]);
    term.wait_for("you gave up");
    term.keys(&["C-d"]);
    let s = term.wait_for("EXIT=0");
    let want = "\
your skill> defence
you: defence, AI: breakthrough2 -> neither beats the other: go on
lasting: you lose defence for the rest of the game
round 5: you 2 集, AI 0 集; lost: you defence, AI none; you may play:
  1 energy, 2 attack1, 3 breakthrough2
your skill> defence
refused: defence is lost: a lasting effect took it; try again
your skill> q
you gave up in round 5: the AI wins. p plays again, h for help
ji> 
EXIT=0";
    assert!(s.contains(want), "{s}");
    assert_fits_80_columns(&s);
}

/// The docs' showcase variant, the common one with a breakthrough (破防)
/// per defence (64 pairs of lost sets, 2,304 states; the solver's fixture
/// has the same variant), in a real terminal: it plays, the round where
/// the AI's 破防 meets your 小防 takes it (`--seed 3`: round 9), typing it
/// again is refused, and it trains.
#[cfg(unix)]
#[test]
fn the_showcase_variant_plays_and_trains_on_a_real_terminal() {
    if common::tool_or_skip(&["tmux"], "the_showcase_variant_plays_and_trains_on_a_real_terminal")
        .is_none()
    {
        return;
    }
    let root = common::root();
    let variant = root.join("tests/data/ji_variant/common_breakthrough_per_defence.txt");
    let solver_case = "tests/data/ji_solver/lasting/common_breakthrough_per_defence_unlimited.in";
    let case = fs::read_to_string(root.join(solver_case)).unwrap();
    assert!(case.starts_with(&fs::read_to_string(&variant).unwrap()), "one variant");
    let dir = scratch("tmux-showcase");
    let args = format!("--seed 3 --archive a.txt --variant '{}'", variant.display());
    let term = Terminal::ji("showcase", &dir, &args);
    let first = term.wait_for("ji> ");
    assert!(first.contains("the AI's table: 2304 states, each side's 集 0 to 5"), "{first}");
    assert!(first.contains("64 pairs of lost sets"), "{first}");
    term.keys(&["p", "Enter"]);
    for round in 1..=9 {
        term.wait_for(&format!("round {round}: "));
        term.keys(&["small shield", "Enter"]);
    }
    term.wait_for("round 10: ");
    term.keys(&["small shield", "Enter"]);
    term.wait_for("refused: 小防 small shield is lost");
    term.keys(&["q", "Enter"]);
    term.wait_for("you gave up");
    term.keys(&["t 2", "Enter"]);
    term.wait_for("saved 'a.txt'");
    term.keys(&["C-d"]);
    let s = term.wait_for("EXIT=0");
    let want = "\
your skill> small shield
you: 小防 small shield, AI: 破防 -> neither beats the other: go on
lasting: you lose 小防 for the rest of the game
round 10: you 0 集, AI 0 集; lost: you 小防, AI none; you may play:";
    assert!(s.contains(want), "{s}");
    assert!(s.contains("refused: 小防 small shield is lost: a lasting effect took it; try again"));
    assert!(s.contains("\ngeneration 2: best fitness "), "{s}");
    assert_fits_80_columns(&s);
}

/// `cargo r -r` at the repository's root starts the trainer, as the
/// original's README says (`default-run`), and `q` quits it cleanly. It
/// runs in the root, where `q` leaves the archive `archive` (a reader's,
/// or none) as it was. The release build comes first, outside the
/// terminal: the wait for the prompt is a bound against a hang, not a
/// build time.
#[cfg(unix)]
#[test]
fn cargo_r_r_starts_the_trainer_and_q_quits() {
    if common::tool_or_skip(&["tmux"], "cargo_r_r_starts_the_trainer_and_q_quits").is_none() {
        return;
    }
    let root = common::root();
    let archive = || fs::read(root.join("archive")).ok();
    let before = archive();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let build = std::process::Command::new(&cargo)
        .args(["build", "--release", "--bin", "ji", "--quiet"])
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(build.status.success(), "{}", String::from_utf8_lossy(&build.stderr));
    let cargo_word = kit::run::shell_quote(cargo.as_ref());
    let shell = format!("{cargo_word} r -r; echo EXIT=$?; sleep 60");
    let term = Terminal::start("cargo-r", &root, &shell);
    term.wait_for("ji> ");
    term.keys(&["q", "Enter"]);
    let s = term.wait_for("EXIT=");
    assert!(s.contains("type t to train the AI, p to play against it"), "{s}");
    assert!(s.contains("ji> q\nEXIT=0"), "{s}");
    assert!(archive() == before, "q changed the archive");
}

/// No line of `screen` is wider than 80 columns.
fn assert_fits_80_columns(screen: &str) {
    let wide: Vec<&str> = screen.lines().filter(|l| width(l) > 80).collect();
    assert!(wide.is_empty(), "wider than 80 columns: {wide:?}");
}

/// Terminal columns, as `ji` counts them: CJK characters and emoji are two.
fn width(s: &str) -> usize {
    let wide = |c: char| {
        matches!(c as u32, 0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6
        | 0x1F300..=0x1F64F | 0x1F900..=0x1F9FF | 0x20000..=0x3FFFD)
    };
    s.chars().map(|c| if wide(c) { 2 } else { 1 }).sum()
}
