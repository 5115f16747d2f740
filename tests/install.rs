//! The README's install story, as a user lives it: `cargo install --path .`
//! (here into a temporary `--root`, offline) puts kit beside our solvers
//! and the trainer; the installed kit, found on PATH, works in a folder
//! outside the repository (our solver beside it answers `kit gen`, `kit
//! judge` judges the installed solver on our fixtures) and names itself
//! `kit` in the commands it prints; `cargo uninstall judge-sims` removes
//! everything.
//!
//! The install builds in the workspace's target/release, as the user's does:
//! after a `cargo build --release` (CI's readme-samples) it only copies;
//! on a fresh checkout it is one release build (about a minute on 2 CPUs).

mod common;

use kit::scratch::Scratch;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The install and uninstall commands, exactly as README.md's Install
/// section shows them.
const INSTALL: &str = "cargo install --path .";
const UNINSTALL: &str = "cargo uninstall judge-sims";

/// `cargo ARGS` in the repository's root.
fn cargo(args: &[&str], more: &[&Path]) -> Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    Command::new(cargo).args(args).args(more).current_dir(common::root()).output().unwrap()
}

/// `script` run by `sh` in `dir`, with `bin` first on PATH: kit is started
/// by the name typed, as from a user's shell. (exit code, stdout, stderr).
fn shell(bin: &Path, dir: &Path, script: &str) -> (i32, String, String) {
    let mut path = OsString::from(bin);
    path.push(":");
    path.push(std::env::var_os("PATH").unwrap_or_default());
    let out = Command::new("sh")
        .args(["-c", script])
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("KIT_SOLVER_DIR")
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

fn installed(bin: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(bin)
        .map(|d| d.filter_map(|e| e.ok()?.file_name().into_string().ok()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn the_readme_shows_these_commands() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let section = readme.split("\n## Install\n").nth(1).expect("README.md has an Install section");
    let section = section.split("\n## ").next().unwrap();
    assert!(section.contains(&format!("\n$ {INSTALL}\n")), "{section}");
    assert!(section.contains(&format!("`{UNINSTALL}`")), "{section}");
}

#[test]
#[cfg(unix)]
fn installed_kit_judges_our_solver_from_another_folder() {
    let tmp = Scratch::new("install");
    let root = tmp.path().join("root");
    let bin: PathBuf = root.join("bin");
    let install: Vec<&str> = INSTALL.split(' ').skip(1).collect();
    let out = cargo(&[&install[..], &["--offline", "--quiet", "--root"]].concat(), &[&root]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Every program of the package, kit among them, in one folder.
    let mut want = common::binaries();
    want.push("kit".into());
    want.sort();
    let exe: Vec<String> =
        want.iter().map(|b| format!("{b}{}", std::env::consts::EXE_SUFFIX)).collect();
    assert_eq!(installed(&bin), exe);

    // A contest folder of the user's: no tests/data, no target/.
    let contest = tmp.path().join("contest");
    std::fs::create_dir(&contest).unwrap();
    let (code, stdout, stderr) = shell(&bin, &contest, "kit --help");
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("kit: ") && stdout.contains("\n  kit judge PROBLEM"), "{stdout}");

    // kit gen answers with our solver, found beside kit.
    let (code, stdout, stderr) = shell(&bin, &contest, "kit gen zhuguosha --count 3 --out cases");
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("wrote 3 cases of zhuguosha "), "{stdout}");

    // The installed solver, on PATH, judged on those cases and on our
    // fixtures (the accepted solutions' answers).
    let fixtures = common::root().join("tests/data/zhuguosha");
    let script =
        format!("kit judge zhuguosha --dir cases --dir '{}' -- zhuguosha", fixtures.display());
    let (code, stdout, stderr) = shell(&bin, &contest, &script);
    assert_eq!(code, 0, "{stdout}{stderr}");
    // Its summary, `AC n/n`: some cases, all accepted.
    let all_accepted = stdout.lines().filter_map(|l| l.strip_prefix("AC ")).any(|l| {
        let (accepted, rest) = l.split_once('/').unwrap_or_default();
        let judged: String = rest.chars().take_while(char::is_ascii_digit).collect();
        accepted.parse::<u32>().is_ok_and(|n| n > 0) && accepted == judged
    });
    assert!(all_accepted, "{stdout}");

    // The command kit prints to judge a failure again names it as typed.
    let (code, stdout, stderr) = shell(&bin, &contest, "kit stress zhuguosha --count 1 -- false");
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stdout.lines().last(),
        Some("judge it again: kit judge zhuguosha --dir stress-failures/zhuguosha -- false"),
        "{stdout}"
    );

    // One line removes everything it installed.
    let uninstall: Vec<&str> = UNINSTALL.split(' ').skip(1).collect();
    let out = cargo(&[&uninstall[..], &["--quiet", "--root"]].concat(), &[&root]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(installed(&bin), Vec::<String>::new());
}
