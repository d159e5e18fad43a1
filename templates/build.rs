//! Compiles the templates into the program: every file of `templates/<language>/`,
//! the games' own folders included, as (path under templates/, text). A new game's
//! wording is a new folder there and needs no line of Rust. The files outside the
//! language folders (this one, lib.rs, Cargo.toml, README.md) are not templates.

use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("templates/ is readable")
        .map(|e| e.expect("templates/ is readable").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("md" | "yaml")
        ) {
            out.push(path);
        }
    }
}

fn main() {
    // This crate is the templates folder itself, at the top of the repository beside
    // kit.yaml where teachers find it, so that its package carries every template.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-changed=.");
    let mut files = Vec::new();
    for language in std::fs::read_dir(root).expect("templates/ is readable") {
        let path = language.expect("templates/ is readable").path();
        if path.is_dir() {
            collect(&path, &mut files);
        }
    }
    // Sorted by the name as text, so that the program can search the table.
    let mut named: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|path| {
            let name = path
                .strip_prefix(root)
                .expect("under templates/")
                .to_str()
                .expect("template paths are UTF-8")
                .replace('\\', "/");
            (name, path)
        })
        .collect();
    named.sort();
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
