//! `kit`: see `kit --help` ([`kit::cli::USAGE`]).

use std::io::IsTerminal;

fn main() {
    // Stopping kit stops the program it runs.
    kit::run::stop_children_on_signals();
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let (stdout, stderr) = (std::io::stdout(), std::io::stderr());
    let live = stderr.is_terminal();
    let code = kit::cli::main(&args, &mut stdout.lock(), &mut stderr.lock(), live);
    std::process::exit(code);
}
