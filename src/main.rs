//! The `matchbox` command: argument parsing and output only; the work is in the library.

// mimalloc: the exact figures allocate a state's lines of play on every core at once,
// where the system allocator's locks and returned pages cost a tenth of HER's kit.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(matchbox::cli::main());
}
