//! `kit package PROBLEM --out DIR [--force]`: a Kattis problem package
//! (the legacy format, which Kattis and DOMjudge import, checked by
//! problemtools' `verifyproblem`) for one of our problems.
//!
//! Everything comes from this repository, read when kit runs (the
//! repository root is the folder above kit's own `Cargo.toml`, fixed when
//! kit is built, or `$KIT_REPO`): the hand-written parts from
//! `kit/packages/PROBLEM/` (problem.yaml, problem_statement/, sample/*.in,
//! submissions/), our solver `src/bin/PROBLEM.rs`, the fixtures in
//! `tests/data/PROBLEM/`, and cases drawn from every `kit gen` profile.
//! Every answer (`.ans`) is our solver's output, run with `--strict` so a
//! case outside the strict format never enters the package.
//!
//! The package:
//!   problem.yaml                    copied from kit/packages/PROBLEM/
//!   problem_statement/              copied likewise
//!   data/testdata.yaml              `input_validator_flags: --validate`
//!   data/sample/NN-NAME.in, .ans    kit/packages/PROBLEM/sample/*.in, sorted
//!   data/secret/*.in, *.ans         fixtures, then generated cases
//!   input_validators/strict/PROBLEM.rs  our solver: `--validate` is its
//!                                   strict reading, exit 42 or 43
//!   output_validators/compare/      our comparison rule: compare.rs
//!                                   (`output_validator`) and the `build`
//!                                   script that compiles it with rustc;
//!                                   problem.yaml's `validation: custom`
//!                                   selects it
//!   submissions/accepted/PROBLEM.rs our solver as pasted
//!   submissions/<verdict>/NAME.rs   planted: NAME.rs copied, or NAME.edit
//!                                   applied to our solver ([`apply_edit`]),
//!                                   from kit/packages/PROBLEM/submissions/
//!                                   and kit/packages/every_problem/submissions/
//!
//! kit/packages/every_problem/ holds what every package gets: the output
//! validator's template and build script, and planted submissions that
//! edit the `solver-run` block all four solvers share.
//!
//! The package is written into a fresh folder beside DIR and renamed to DIR
//! at the end, so a failure leaves nothing half-written.

use crate::compare::Rule;
use crate::error::{Error, Result};
use crate::gen::Source;
use crate::gen::OUR_LIMIT;
use crate::problems::Problem;
use crate::run::{self, Cmd, Status};
use std::collections::HashSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// `kit package --help`.
pub const HELP: &str = "\
usage: kit package PROBLEM --out DIR [--zip FILE] [--force] [--solver PATH]

Writes a Kattis problem package (legacy format: Kattis, DOMjudge and
problemtools' verifyproblem read it) for PROBLEM to DIR: problem.yaml, the
statement (problem_statement/problem.en.tex), data/sample and data/secret
(our fixtures that pass --strict, and cases from every kit gen profile,
answers from our solver), input_validators/ (our solver with --validate:
exit 42 valid, 43 invalid), output_validators/ (kit judge's comparison
rule in Rust, with a build script that compiles it with rustc: line by
line, case-sensitive, trailing spaces and blank lines forgiven),
submissions/accepted (our solver as pasted) and the planted submissions.
The sources are read from the repository kit was built in (or $KIT_REPO).

  --out DIR      the package folder; it must not exist unless --force
  --zip FILE     also write the package as FILE (a zip of DIR's contents,
                 as DOMjudge imports it)
  --force        replace DIR (and FILE)
  --solver PATH  our solver binary (default: beside kit, or in $KIT_SOLVER_DIR)
";

/// Generated cases per profile, and the input size over which a profile
/// gives one case only, and over which a case is left out (Ants' 5000x5000
/// map is 25 MB: too big to ship in a package that every submission runs).
const CASES_PER_PROFILE: u64 = 3;
const BIG_INPUT: usize = 1 << 20;
const MAX_INPUT: usize = 8 << 20;

/// The input validator's flags (decision 3 in the project's briefs).
const TESTDATA_YAML: &str = "input_validator_flags: --validate\n";

/// The output validator's template and the comparison rule it inlines
/// (both compiled into kit, so a package judges exactly as this kit does).
const VALIDATOR_TEMPLATE: &str =
    include_str!("../packages/every_problem/output_validators/compare/compare.rs");
const VALIDATOR_BUILD: &str =
    include_str!("../packages/every_problem/output_validators/compare/build");
const COMPARE_RS: &str = include_str!("compare.rs");

/// The line of problem.yaml that makes a judge run our output validator.
const CUSTOM_VALIDATION: &str = "validation: custom";

/// The verdict folders a planted submission may sit in.
const VERDICTS: [&str; 4] = ["wrong_answer", "time_limit_exceeded", "run_time_error", "accepted"];

/// `kit package PROBLEM --out DIR [--zip FILE] [--force]` (the options
/// as `cli::PackageOptions` read them; `solver`: our solver, located).
pub fn command(
    problem: &'static dyn Problem,
    dir: &Path,
    zip: Option<&Path>,
    force: bool,
    solver: &Path,
    out: &mut dyn Write,
) -> Result<()> {
    if let Some(file) = zip {
        if file.exists() && !force {
            return Err(Error::usage(format!(
                "{} already exists: kit package replaces it only with --force",
                file.display()
            )));
        }
    }
    let summary = write(problem, &repo_root(), solver, dir, force)?;
    if let Some(file) = zip {
        write_zip(dir, file)?;
    }
    writeln!(
        out,
        "{}: {} sample and {} secret cases, {} submissions, {} bytes",
        dir.display(),
        summary.samples,
        summary.secret,
        summary.submissions,
        summary.bytes
    )?;
    Ok(())
}

/// The repository kit reads its sources from.
pub fn repo_root() -> PathBuf {
    match std::env::var_os("KIT_REPO") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join(".."),
    }
}

/// What a written package holds.
#[derive(Debug, Default)]
pub struct Summary {
    pub samples: usize,
    pub secret: usize,
    pub submissions: usize,
    pub bytes: u64,
}

/// Writes the package of `problem` to `dir` (replacing it if `force`),
/// from the repository at `repo`, answering with `solver`.
pub fn write(
    problem: &dyn Problem,
    repo: &Path,
    solver: &Path,
    dir: &Path,
    force: bool,
) -> Result<Summary> {
    if dir.exists() && !force {
        return Err(Error::usage(format!(
            "{} already exists: kit package replaces it only with --force",
            dir.display()
        )));
    }
    let file_name = dir
        .file_name()
        .ok_or_else(|| Error::usage(format!("--out {}: not a folder name", dir.display())))?;
    // problemtools takes the folder's name as the problem's short name,
    // which must be [a-z0-9]+ (`ants_battle` is refused: use `antsbattle`).
    let short = file_name.to_string_lossy();
    if short.is_empty() || !short.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()) {
        return Err(Error::usage(format!(
            "--out {}: the folder's name is the problem's short name, which must be \
             lowercase letters and digits only (such as {})",
            dir.display(),
            problem.name().replace('_', "")
        )));
    }
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // The package is written beside DIR: its folder must exist (said of
    // --out, not of the temporary folder kit would make there).
    if !parent.is_dir() {
        return Err(Error::usage(format!(
            "--out {}: the folder {} does not exist",
            dir.display(),
            parent.display()
        )));
    }
    let temp =
        parent.join(format!(".{}.kit-package-{}", file_name.to_string_lossy(), std::process::id()));
    let _ = fs::remove_dir_all(&temp);
    fs::create_dir(&temp).map_err(|e| Error::io(format!("cannot create {}", temp.display()), e))?;
    let built = build(problem, repo, solver, &temp);
    let summary = match built {
        Ok(summary) => summary,
        Err(e) => {
            let _ = fs::remove_dir_all(&temp);
            return Err(e);
        }
    };
    if dir.exists() {
        fs::remove_dir_all(dir)
            .map_err(|e| Error::io(format!("cannot replace {}", dir.display()), e))?;
    }
    fs::rename(&temp, dir).map_err(|e| {
        let _ = fs::remove_dir_all(&temp);
        Error::io(format!("cannot write {}", dir.display()), e)
    })?;
    Ok(summary)
}

/// Fills the empty folder `root` with the package.
fn build(problem: &dyn Problem, repo: &Path, solver: &Path, root: &Path) -> Result<Summary> {
    let name = problem.name();
    let content = repo.join("kit/packages").join(name);
    let source_path = repo.join("src/bin").join(format!("{name}.rs"));
    let source = read(&source_path)?;
    let mut summary = Summary::default();

    let yaml_path = content.join("problem.yaml");
    let yaml = read(&yaml_path)?;
    // Without it a judge ignores our validator (and verifyproblem errs).
    if !yaml.lines().any(|line| line.trim_end() == CUSTOM_VALIDATION) {
        return Err(Error::usage(format!(
            "{}: no `{CUSTOM_VALIDATION}` line, so a judge would not run the package's \
             output validator",
            yaml_path.display()
        )));
    }
    put(&root.join("problem.yaml"), yaml.as_bytes())?;
    copy_tree(&content.join("problem_statement"), &root.join("problem_statement"))?;

    // Submissions first: a broken .edit fails before any solver runs.
    put(&root.join(format!("submissions/accepted/{name}.rs")), source.as_bytes())?;
    summary.submissions += 1;
    let every_problem = repo.join("kit/packages/every_problem/submissions");
    for verdict in VERDICTS {
        let mut planted = sorted_files(&content.join("submissions").join(verdict))?;
        planted.extend(sorted_files(&every_problem.join(verdict))?);
        for file in planted {
            let file_name = file.file_name().unwrap_or_default().to_string_lossy().to_string();
            let target = root.join("submissions").join(verdict);
            if let Some(stem) = file_name.strip_suffix(".edit") {
                let edit = read(&file)?;
                let planted = apply_edit(&source, &edit)
                    .map_err(|e| Error::usage(format!("{}: {e}", file.display())))?;
                put(&target.join(format!("{stem}.rs")), planted.as_bytes())?;
            } else {
                copy_file(&file, &target.join(&file_name))?;
            }
            summary.submissions += 1;
        }
    }
    put(&root.join(format!("input_validators/strict/{name}.rs")), source.as_bytes())?;
    let validator = root.join("output_validators/compare");
    put(&validator.join("compare.rs"), output_validator(problem.rule()).as_bytes())?;
    put(&validator.join("build"), VALIDATOR_BUILD.as_bytes())?;
    executable(&validator.join("build"))?;
    put(&root.join("data/testdata.yaml"), TESTDATA_YAML.as_bytes())?;

    // Samples: the statement's, in order, each must be valid with an answer.
    let sample_dir = root.join("data/sample");
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    for (k, file) in sorted_files(&content.join("sample"))?.iter().enumerate() {
        // Numbered in sorted order (the statement's), a `N-` prefix dropped.
        let stem = file.file_stem().unwrap_or_default().to_string_lossy().to_string();
        let name = match stem.split_once('-') {
            Some((n, rest)) if n.bytes().all(|b| b.is_ascii_digit()) => rest.to_string(),
            _ => stem,
        };
        let case = sample_dir.join(format!("{:02}-{name}", k + 1));
        copy_file(file, &case.with_extension("in"))?;
        seen.insert(fs::read(file)?);
        if !answer(solver, &case)? {
            return Err(Error::usage(format!(
                "sample {} is not --strict-valid with an answer (exit 0)",
                file.display()
            )));
        }
        summary.samples += 1;
    }

    // Secret: fixtures (inputs only, without special arguments or
    // beyond-the-judge readings, no CR), then generated cases, no input
    // twice in the package (verifyproblem warns of identical inputs).
    let secret = root.join("data/secret");
    for file in fixtures(&repo.join("tests/data").join(name))? {
        let bytes =
            fs::read(&file).map_err(|e| Error::io(format!("cannot read {}", file.display()), e))?;
        // CRLF cases (which zhuguosha --strict accepts) draw a warning.
        if bytes.len() > MAX_INPUT || bytes.contains(&b'\r') || !seen.insert(bytes.clone()) {
            continue;
        }
        let relative = file.strip_prefix(repo.join("tests/data").join(name)).unwrap_or(&file);
        let flat = relative.with_extension("").to_string_lossy().replace(['/', '\\'], "-");
        let case = secret.join(format!("fixture-{flat}"));
        put(&case.with_extension("in"), &bytes)?;
        if answer(solver, &case)? {
            summary.secret += 1;
        } else {
            remove_case(&case);
        }
    }
    let cmd = Cmd::new(solver.as_os_str());
    for profile in problem.profiles() {
        let source = Source { problem, profile: profile.name, seed: 1, solver: &cmd };
        for index in 0..CASES_PER_PROFILE {
            let mut rng = crate::rng::Rng::new(crate::gen::case_seed(1, index, 0));
            // A first draw bigger than the cap needs no solver run at all.
            let first = problem.generate(profile.name, &mut rng).unwrap_or_default();
            if first.len() > MAX_INPUT {
                break;
            }
            let drawn = source.draw(index)?;
            let bytes = drawn.input.into_bytes();
            if !seen.insert(bytes.clone()) {
                continue;
            }
            let case = secret.join(format!("gen-{}-{index}", profile.name));
            put(&case.with_extension("in"), &bytes)?;
            if answer(solver, &case)? {
                summary.secret += 1;
            } else {
                remove_case(&case);
            }
            if bytes.len() > BIG_INPUT {
                break;
            }
        }
    }
    summary.bytes = tree_bytes(root)?;
    Ok(summary)
}

/// The package's output validator, one file: the template
/// kit/packages/every_problem/output_validators/compare/compare.rs with
/// kit/src/compare.rs inlined as its `mod compare` and `rule` as its `RULE`.
fn output_validator(rule: Rule) -> String {
    let module = format!("mod compare {{\n{COMPARE_RS}}}");
    let generated = "// Written by `kit package` from kit/packages/every_problem/\n\
                     // output_validators/compare/compare.rs and kit/src/compare.rs:\n\
                     // edit those, not this copy.\n";
    format!("{generated}{VALIDATOR_TEMPLATE}")
        .replacen("#[path = \"../../../../src/compare.rs\"]\n", "", 1)
        .replacen("mod compare;", &module, 1)
        .replacen(
            "const RULE: Rule = Rule::Exact;",
            &format!("const RULE: Rule = Rule::{rule:?};"),
            1,
        )
}

/// Runs our solver with `--strict` on `case.in` into `case.ans`, as every
/// program is run (`run`, under our solvers' limit): true when it exits 0
/// (a valid input with an answer); an error when it is stopped at a limit.
fn answer(solver: &Path, case: &Path) -> Result<bool> {
    let input = case.with_extension("in");
    let ans = case.with_extension("ans");
    let stdin =
        fs::read(&input).map_err(|e| Error::io(format!("cannot read {}", input.display()), e))?;
    let cmd = Cmd::new(solver).arg("--strict");
    let cannot_run = |e| Error::io(format!("cannot run {}", solver.display()), e);
    let ran = run::run(&cmd, &stdin, OUR_LIMIT, None).map_err(cannot_run)?;
    if let Status::CpuLimit | Status::IdleLimit | Status::MemoryLimit | Status::OutputLimit =
        ran.status
    {
        let why = format!("{} on {}", ran.status, input.display());
        return Err(cannot_run(std::io::Error::new(std::io::ErrorKind::TimedOut, why)));
    }
    fs::write(&ans, &ran.stdout)
        .map_err(|e| Error::io(format!("cannot write {}", ans.display()), e))?;
    Ok(ran.success())
}

fn remove_case(case: &Path) {
    let _ = fs::remove_file(case.with_extension("in"));
    let _ = fs::remove_file(case.with_extension("ans"));
}

/// The fixture inputs below `dir`, sorted: every `NAME.in` with neither
/// `NAME.args` (special arguments) nor `NAME.beyond` (a reading beyond
/// the official judge's) beside it.
fn fixtures(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        let entries = fs::read_dir(&folder)
            .map_err(|e| Error::io(format!("cannot read {}", folder.display()), e))?;
        for entry in entries {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "in")
                && !path.with_extension("args").exists()
                && !path.with_extension("beyond").exists()
            {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Applies a `.edit` file to `source`: `#` lines outside blocks are
/// comments; each block
///
/// ```text
/// <<<< find
/// text found exactly once
/// ==== replace
/// its replacement
/// >>>>
/// ```
///
/// is applied in order. The newline before `==== replace` and before
/// `>>>>` ends the block's text and is not part of it.
pub fn apply_edit(source: &str, edit: &str) -> std::result::Result<String, String> {
    let mut text = source.to_string();
    let mut lines = edit.lines().enumerate();
    let mut blocks = 0;
    while let Some((at, line)) = lines.next() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if line != "<<<< find" {
            return Err(format!("line {}: expected `<<<< find`, found {line:?}", at + 1));
        }
        let mut find = Vec::new();
        let mut replace = Vec::new();
        let mut in_replace = false;
        let mut closed = false;
        for (_, line) in lines.by_ref() {
            match line {
                "==== replace" if !in_replace => in_replace = true,
                ">>>>" if in_replace => {
                    closed = true;
                    break;
                }
                _ if in_replace => replace.push(line),
                _ => find.push(line),
            }
        }
        if !closed {
            return Err(format!("line {}: a block without `==== replace` and `>>>>`", at + 1));
        }
        let (find, replace) = (find.join("\n"), replace.join("\n"));
        blocks += 1;
        match text.matches(&find).count() {
            1 => text = text.replacen(&find, &replace, 1),
            n => {
                return Err(format!(
                    "block {blocks} (line {}): its find text occurs {n} times in the solver, \
                     not exactly once",
                    at + 1
                ))
            }
        }
    }
    if blocks == 0 {
        return Err("no `<<<< find` block".to_string());
    }
    Ok(text)
}

fn read(path: &Path) -> Result<String> {
    fs::read_to_string(path).map_err(|e| Error::io(format!("cannot read {}", path.display()), e))
}

/// Writes `bytes` to `path`, creating its folders.
fn put(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)
            .map_err(|e| Error::io(format!("cannot create {}", parent.display()), e))?;
    }
    fs::write(path, bytes).map_err(|e| Error::io(format!("cannot write {}", path.display()), e))
}

/// Makes `path` executable (rwxr-xr-x), as a build script must be.
fn executable(path: &Path) -> Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o755))
            .map_err(|e| Error::io(format!("cannot make {} executable", path.display()), e))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

fn copy_file(from: &Path, to: &Path) -> Result<()> {
    let bytes =
        fs::read(from).map_err(|e| Error::io(format!("cannot read {}", from.display()), e))?;
    put(to, &bytes)
}

/// The files directly in `dir`, sorted; none if it does not exist.
fn sorted_files(dir: &Path) -> Result<Vec<PathBuf>> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut files = Vec::new();
    for entry in
        fs::read_dir(dir).map_err(|e| Error::io(format!("cannot read {}", dir.display()), e))?
    {
        let path = entry?.path();
        if path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    let entries =
        fs::read_dir(from).map_err(|e| Error::io(format!("cannot read {}", from.display()), e))?;
    for entry in entries {
        let path = entry?.path();
        let target = to.join(path.file_name().unwrap_or_default());
        if path.is_dir() {
            copy_tree(&path, &target)?;
        } else {
            copy_file(&path, &target)?;
        }
    }
    Ok(())
}

fn tree_bytes(dir: &Path) -> Result<u64> {
    let mut total = 0;
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let meta = entry.metadata()?;
        total += if meta.is_dir() { tree_bytes(&entry.path())? } else { meta.len() };
    }
    Ok(total)
}

/// Writes the files below `dir` as the zip archive `file` (entries named
/// relative to `dir`, stored without compression, dated 1980-01-01, so the
/// same package gives the same bytes); through a temporary file beside it.
pub fn write_zip(dir: &Path, file: &Path) -> Result<()> {
    let mut names = Vec::new();
    list_files(dir, Path::new(""), &mut names)?;
    names.sort();
    let mut archive: Vec<u8> = Vec::new();
    let mut central: Vec<u8> = Vec::new();
    for name in &names {
        let data = fs::read(dir.join(name))?;
        let mode: u32 = if is_executable(&dir.join(name))? { 0o100755 } else { 0o100644 };
        let name = name.to_string_lossy().replace('\\', "/");
        let (crc, size) = (crc32(&data), data.len() as u32);
        let offset = archive.len() as u32;
        // Local header: signature, version 2.0, flags (bit 11: UTF-8
        // names), method 0 (stored), time and date 0, CRC, sizes, name.
        archive.extend(0x0403_4b50u32.to_le_bytes());
        archive.extend([20, 0, 0, 8, 0, 0, 0, 0, 0x21, 0]);
        archive.extend(crc.to_le_bytes());
        archive.extend(size.to_le_bytes());
        archive.extend(size.to_le_bytes());
        archive.extend((name.len() as u16).to_le_bytes());
        archive.extend([0, 0]);
        archive.extend(name.as_bytes());
        archive.extend(&data);
        central.extend(0x0201_4b50u32.to_le_bytes());
        central.extend([20, 3, 20, 0, 0, 8, 0, 0, 0, 0, 0x21, 0]);
        central.extend(crc.to_le_bytes());
        central.extend(size.to_le_bytes());
        central.extend(size.to_le_bytes());
        central.extend((name.len() as u16).to_le_bytes());
        // extra, comment, disk, internal attributes; external: the Unix
        // mode, -rwxr-xr-x for the build script, else -rw-r--r--.
        central.extend([0, 0, 0, 0, 0, 0, 0, 0]);
        central.extend((mode << 16).to_le_bytes());
        central.extend(offset.to_le_bytes());
        central.extend(name.as_bytes());
    }
    if archive.len() + central.len() > u32::MAX as usize || names.len() > usize::from(u16::MAX) {
        return Err(Error::usage("the package is too big for a zip archive (4 GB)"));
    }
    let (count, start) = (names.len() as u16, archive.len() as u32);
    let central_size = central.len() as u32;
    archive.extend(central);
    archive.extend(0x0605_4b50u32.to_le_bytes());
    archive.extend([0, 0, 0, 0]);
    archive.extend(count.to_le_bytes());
    archive.extend(count.to_le_bytes());
    archive.extend(central_size.to_le_bytes());
    archive.extend(start.to_le_bytes());
    archive.extend([0, 0]);
    let temp = file.with_extension(format!("kit-package-{}", std::process::id()));
    fs::write(&temp, &archive)
        .map_err(|e| Error::io(format!("cannot write {}", temp.display()), e))?;
    fs::rename(&temp, file).map_err(|e| {
        let _ = fs::remove_file(&temp);
        Error::io(format!("cannot write {}", file.display()), e)
    })
}

/// Whether `path` is executable by its owner (never, off Unix).
fn is_executable(path: &Path) -> Result<bool> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Ok(fs::metadata(path)?.permissions().mode() & 0o100 != 0)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(false)
    }
}

fn list_files(root: &Path, below: &Path, names: &mut Vec<PathBuf>) -> Result<()> {
    for entry in fs::read_dir(root.join(below))? {
        let entry = entry?;
        let name = below.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            list_files(root, &name, names)?;
        } else {
            names.push(name);
        }
    }
    Ok(())
}

/// CRC-32 (IEEE, reflected), as zip wants it.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::{apply_edit, crc32, output_validator, COMPARE_RS};
    use crate::compare::Rule;

    #[test]
    fn the_output_validator_is_one_file_with_the_problems_rule() {
        let exact = output_validator(Rule::Exact);
        assert!(!exact.contains("#[path") && !exact.contains("mod compare;"));
        assert!(exact.contains(&format!("mod compare {{\n{COMPARE_RS}}}")));
        assert!(exact.contains("const RULE: Rule = Rule::Exact;"));
        let tolerant = output_validator(Rule::Tolerance(1e-6));
        assert!(tolerant.contains("const RULE: Rule = Rule::Tolerance(1e-6);"), "{tolerant}");
    }

    #[test]
    fn crc32_is_the_ieee_one() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn an_edit_applies_each_block_once() {
        let edit =
            "# why\n<<<< find\nb\nc\n==== replace\nX\n>>>>\n<<<< find\nd\n==== replace\n>>>>\n";
        assert_eq!(apply_edit("a\nb\nc\nd\n", edit).unwrap(), "a\nX\n\n");
    }

    #[test]
    fn a_find_text_not_exactly_once_is_refused() {
        let edit = "<<<< find\nx\n==== replace\ny\n>>>>\n";
        assert!(apply_edit("x x", edit).unwrap_err().contains("occurs 2 times"));
        assert!(apply_edit("z", edit).unwrap_err().contains("occurs 0 times"));
        assert!(apply_edit("x", "<<<< find\nx\n").unwrap_err().contains("without"));
        assert!(apply_edit("x", "# only a comment\n").is_err());
    }
}
