//! `kit`: see `kit --help`.

fn main() {
    eprintln!("kit: not built yet");
    std::process::exit(2);
}
