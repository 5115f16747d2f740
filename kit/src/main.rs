//! `kit`: see `kit --help` ([`kit::cli::usage`]). A binary of the root
//! package (its Cargo.toml says why), so that `cargo install --path .`
//! puts it beside our solvers.

use std::io::IsTerminal;

fn main() {
    // Stopping kit stops the program it runs.
    kit::run::stop_children_on_signals();
    // Where only a scope of its own gives kit control groups, kit runs
    // again in one, and this one exits as that one did.
    if let Some(code) = kit::run::run_in_a_scope() {
        std::process::exit(code);
    }
    let mut args = std::env::args_os();
    // As the user typed it: the commands kit prints name kit so.
    let program = args.next().unwrap_or_else(|| "kit".into());
    let args: Vec<std::ffi::OsString> = args.collect();
    let (stdout, stderr) = (std::io::stdout(), std::io::stderr());
    let live = stderr.is_terminal();
    let code = kit::cli::main_as(&program, &args, &mut stdout.lock(), &mut stderr.lock(), live);
    kit::run::release_groups();
    std::process::exit(code);
}
