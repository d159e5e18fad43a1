//! The `matchbox` command: argument parsing and output only; the work is in the library.

fn main() {
    std::process::exit(matchbox::cli::main());
}
