//! Compiles the templates into the program: every file of `templates/<language>/`,
//! the games' own folders included, as (path under templates/, text). A new game's
//! wording is a new folder there and needs no line of Rust. The files outside the
//! language folders (this one, lib.rs, collect.rs, Cargo.toml, README.md) are not
//! templates. It also writes the table of message ids (`ids.rs`): one constant for
//! every key of the English word store (`en/strings.yaml` and every game's), so that a
//! lookup of a key that does not exist fails to compile.

use std::collections::BTreeMap;
use std::path::PathBuf;

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
    for (name, path) in &named {
        table += &format!(
            "    ({name:?}, include_str!({:?})),\n",
            path.display().to_string()
        );
    }
    table += "]\n";
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("templates.rs"), table).expect("OUT_DIR is writable");
    std::fs::write(out.join("ids.rs"), id_table(&named)).expect("OUT_DIR is writable");
}

/// The constants of the `id` module, one per key of the English word store, named by
/// the key in capitals (`cli.verify.header` is `CLI_VERIFY_HEADER`), and `ALL`, every
/// id sorted by its key. English is the reference: a test proves the other languages
/// have the same keys.
fn id_table(named: &[(String, PathBuf)]) -> String {
    let mut keys = Vec::new();
    for (name, path) in named {
        let Some(rest) = name.strip_prefix("en/") else {
            continue;
        };
        let in_store = rest == "strings.yaml"
            || rest
                .strip_prefix("games/")
                .and_then(|r| r.strip_suffix("/strings.yaml"))
                .is_some_and(|game| !game.contains('/'));
        if in_store {
            let text = std::fs::read_to_string(path).expect("templates/ is readable");
            keys.extend(top_level_keys(&text));
        }
    }
    keys.sort();
    let mut constants: BTreeMap<String, &str> = BTreeMap::new();
    let mut sorted = Vec::new();
    let mut out = String::new();
    for key in &keys {
        let constant: String = key
            .chars()
            .map(|c| match c {
                'a'..='z' | 'A'..='Z' | '0'..='9' => c.to_ascii_uppercase(),
                _ => '_',
            })
            .collect();
        if let Some(other) = constants.insert(constant.clone(), key) {
            panic!("the keys {other:?} and {key:?} would both be the id {constant}");
        }
        out += &format!("/// `{key}`\npub const {constant}: Id = Id({key:?});\n");
        sorted.push(constant);
    }
    out += "/// Every id, sorted by its key.\npub(crate) static ALL: &[Id] = &[\n";
    for constant in sorted {
        out += &format!("    {constant},\n");
    }
    out += "];\n";
    out
}

/// The keys of a word store file: every line that starts with neither a space nor `#`
/// holds `key: "text"` (a test parses the files as YAML and finds the same keys).
fn top_level_keys(text: &str) -> impl Iterator<Item = String> + '_ {
    text.lines()
        .filter(|line| !line.is_empty() && !line.starts_with([' ', '\t', '#']))
        .map(|line| {
            let (key, _) = line.split_once(':').expect("a key: text line");
            key.trim().trim_matches('"').to_string()
        })
}
