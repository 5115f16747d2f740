//! The `main` of the four pasted solvers: the help, or stdin through the
//! solver's `solve` to stdout, and `--validate` (docs/contract.md). The
//! master of the marked block `solver-run`. It completes a solver file (its
//! `solve`, `Options`, `HELP`, `BIN`, `unwritable` and the `command-line`
//! block), so no crate imports it as a module: scripts/sync-shared copies
//! the block into src/bin/{zhuguosha,ants_battle,ji_referee,ji_solver}.rs,
//! and those files compile it.
//!
//! `run` prints the help, or passes stdin through `solve` to stdout (and
//! the trace to stderr), both buffered and flushed before any error line,
//! and returns the exit code. With `--validate` it sets `--strict` (a
//! solver without it refuses), prints nothing and returns VALID (also for
//! an input without an answer, exit 3) or INVALID after the one error line
//! (docs/contract.md).
//!
//! # Errors
//! `run` returns the solver's `Failure`: a refused argument, an
//! unreadable stdin, `solve`'s own, an unwritable output; `main` prints it
//! and exits with its code.

// shared: solver-run begin, master src/shared/solver_run.rs (edit there, then run scripts/sync-shared)

/// `--validate`'s exit codes, a Kattis input validator's: valid, invalid.
const VALID: i32 = 42;
const INVALID: i32 = 43;

fn main() {
    match run(std::env::args_os().skip(1)) {
        Ok(0) => {}
        Ok(code) => std::process::exit(code),
        Err(failure) => exit_with(failure),
    }
}

/// The help, or stdin through `solve` to stdout; the exit code.
fn run(args: impl Iterator<Item = OsString>) -> Result<i32, Failure> {
    let (validate, args): (Vec<_>, Vec<_>) = args.partition(|a| a == "--validate");
    let validate = !validate.is_empty();
    let mut options = match parse_args(args.into_iter())? {
        Command::Help => {
            let mut out = io::stdout();
            out.write_all(HELP.as_bytes()).and_then(|()| out.flush()).map_err(unwritable)?;
            return Ok(0);
        }
        Command::Run(options) => options,
    };
    if validate && !options.set("--strict", &mut [].iter())? {
        return Err(refused(format!("--validate needs --strict, which {} lacks", BIN)));
    }
    let mut input = Vec::new();
    let read = io::stdin().lock().read_to_end(&mut input);
    read.map_err(|e| Failure::UnreadableInput(e.to_string()))?;
    // One type for both ends, so that `solve` is compiled once: stdout and
    // stderr, or nowhere for `--validate`.
    let (stdout, stderr): (Box<dyn Write>, Box<dyn Write>) = match validate {
        true => (Box::new(io::sink()), Box::new(io::sink())),
        false => (Box::new(io::stdout().lock()), Box::new(io::stderr().lock())),
    };
    let (solved, flushed) = {
        let mut out = io::BufWriter::with_capacity(1 << 16, stdout);
        let mut trace = io::BufWriter::new(stderr);
        let solved = solve(input, &options, &mut out, &mut trace);
        // Both go out before the error line (exit 3 may follow an answer).
        (solved, trace.flush().and(out.flush()))
    };
    if validate {
        return match solved {
            Err(failure) if failure.exit_code() == 2 => {
                let _ = writeln!(io::stderr(), "{}: {}", BIN, failure);
                Ok(INVALID)
            }
            Err(failure) if failure.exit_code() != 3 => Err(failure),
            _ => Ok(VALID),
        };
    }
    solved?;
    flushed.map_err(unwritable)?;
    Ok(0)
}
// shared: solver-run end
