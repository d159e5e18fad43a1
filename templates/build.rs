//! Compiles the templates into the program: every file of `templates/<language>/`,
//! the games' own folders included, as (path under templates/, text). A new game's
//! wording is a new folder there and needs no line of Rust. The files outside the
//! language folders (this one, lib.rs, collect.rs, Cargo.toml, README.md) are not
//! templates.

use std::path::{Path, PathBuf};

#[path = "collect.rs"]
mod collect;

fn main() {
    // This crate is the templates folder itself, at the top of the repository beside
    // kit.yaml where teachers find it, so that its package carries every template.
    // Read when the script runs (not `env!`, fixed when it was compiled), so that a
    // build folder copied from another checkout still compiles this one's templates.
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    println!("cargo:rerun-if-changed=.");
    let named = collect::template_paths(&root).expect("templates/ is readable");
    let mut table = String::from("&[\n");
    for (name, path) in named {
        table += &format!(
            "    ({name:?}, include_str!({:?})),\n",
            path.display().to_string()
        );
    }
    table += "]\n";
    let out =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("templates.rs");
    std::fs::write(out, table).expect("OUT_DIR is writable");
}
