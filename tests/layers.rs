//! The layers hold (docs/architecture.md): each crate uses only crates below it, the
//! engine, the print shop, the classroom and the browser's engine depend on nothing that
//! serves, parses a command line or handles signals (the engine on nothing that draws
//! either, the classroom and the browser's engine on no file system), and within every
//! crate no top-level module imports one that imports it back, even through others.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The source folder of every crate of the workspace, the binary's included.
const SOURCES: [&str; 7] = [
    "src",
    "crates/engine/src",
    "crates/print/src",
    "crates/files/src",
    "crates/classroom/src",
    "crates/serve/src",
    "crates/web/src",
];

/// The workspace's crates and the ones of them each may use.
const LAYERS: [(&str, &[&str]); 8] = [
    // The templates folder as a crate, so that the engine's package carries them.
    ("matchbox-templates", &[]),
    ("matchbox-engine", &["matchbox-templates"]),
    ("matchbox-files", &["matchbox-engine"]),
    ("matchbox-print", &["matchbox-engine"]),
    ("matchbox-classroom", &["matchbox-engine", "matchbox-print"]),
    (
        "matchbox-serve",
        &["matchbox-engine", "matchbox-files", "matchbox-classroom"],
    ),
    (
        "matchbox-web",
        &["matchbox-engine", "matchbox-print", "matchbox-classroom"],
    ),
    (
        "matchbox",
        &[
            "matchbox-engine",
            "matchbox-files",
            "matchbox-print",
            "matchbox-serve",
        ],
    ),
];

/// What serves, parses a command line or handles signals: kept out of the crates of
/// [`KEPT_OUT`].
const FRONT_ENDS: [&str; 5] = ["axum", "tokio", "clap", "indicatif", "ctrlc"];

/// What a lower crate must not depend on, even indirectly (besides [`FRONT_ENDS`]).
const KEPT_OUT: [(&str, &[&str]); 4] = [
    (
        "matchbox-engine",
        &["krilla", "rustybuzz", "tiny-skia", "png"],
    ),
    ("matchbox-print", &[]),
    // The classroom's answers are the same over HTTP and in the browser's engine.
    ("matchbox-classroom", &["matchbox-files", "hyper"]),
    ("matchbox-web", &["matchbox-files", "hyper"]),
];

/// Cargo.lock's packages: each name with the names of its dependencies (of every
/// version: the closure is then an upper bound of what is built).
fn locked_packages() -> BTreeMap<String, BTreeSet<String>> {
    let lock = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock"))
        .expect("Cargo.lock");
    let mut packages: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for block in lock.split("[[package]]").skip(1) {
        let name = block
            .lines()
            .find_map(|l| l.strip_prefix("name = "))
            .map(|n| n.trim_matches('"').to_string())
            .expect("a package name");
        let dependencies = block
            .split_once("dependencies = [")
            .map(|(_, rest)| rest.split(']').next().unwrap_or_default())
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().trim_end_matches(',').strip_prefix('"'))
            .filter_map(|d| d.trim_end_matches('"').split(' ').next())
            .map(str::to_string);
        packages.entry(name).or_default().extend(dependencies);
    }
    packages
}

/// Every package `root` depends on, directly or not.
fn closure(packages: &BTreeMap<String, BTreeSet<String>>, root: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut next = vec![root.to_string()];
    while let Some(name) = next.pop() {
        for dependency in packages.get(&name).into_iter().flatten() {
            if seen.insert(dependency.clone()) {
                next.push(dependency.clone());
            }
        }
    }
    seen
}

#[test]
fn each_crate_uses_only_the_crates_below_it() {
    let packages = locked_packages();
    for (name, below) in LAYERS {
        let ours: BTreeSet<&str> = packages[name]
            .iter()
            .map(String::as_str)
            .filter(|d| d.starts_with("matchbox"))
            .collect();
        assert!(
            ours.iter().all(|d| below.contains(d)),
            "{name} uses {ours:?}"
        );
    }
    for (name, kept_out) in KEPT_OUT {
        let all = closure(&packages, name);
        let found: Vec<&&str> = kept_out
            .iter()
            .chain(&FRONT_ENDS)
            .filter(|k| all.contains(**k))
            .collect();
        assert!(found.is_empty(), "{name} depends on {found:?}");
    }
}

/// The `.rs` files under `folder`, at any depth.
fn rust_files(folder: &Path, found: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(folder).expect("a source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// The names a `crate::` path at the start of `rest` reaches first: `crate::a::b` gives
/// `a`, `crate::{a::b, c}` gives `a` and `c`.
fn first_names(rest: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let Some(group) = rest.strip_prefix('{') else {
        return vec![ident(rest)];
    };
    let mut names = vec![ident(group.trim_start())];
    let mut depth = 1;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 1 => break,
            '}' => depth -= 1,
            ',' if depth == 1 => names.push(ident(group[i + 1..].trim_start())),
            _ => {}
        }
    }
    names
}

/// A crate's top-level modules and the ones each imports, outside test code (a file's
/// text from its first `#[cfg(test)]` on) and comments.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let module_of = |path: &Path| -> String {
        let first = path.strip_prefix(src).unwrap().iter().next().unwrap();
        first.to_string_lossy().trim_end_matches(".rs").to_string()
    };
    let modules: BTreeSet<String> = files
        .iter()
        .map(|f| module_of(f))
        .filter(|m| m != "lib" && m != "main")
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let from = module_of(file);
        if !modules.contains(&from) {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for line in code.lines() {
            let line = line.split("//").next().unwrap_or_default();
            for (at, _) in line.match_indices("crate::") {
                let reached = first_names(&line[at + "crate::".len()..]);
                let edges = graph.entry(from.clone()).or_default();
                edges.extend(
                    reached
                        .into_iter()
                        .filter(|m| *m != from && modules.contains(m)),
                );
            }
        }
    }
    graph
}

/// A cycle through `at`'s imports, if any, as the modules along it.
fn cycle_from(
    graph: &BTreeMap<String, BTreeSet<String>>,
    at: &str,
    path: &mut Vec<String>,
    done: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if let Some(start) = path.iter().position(|m| m == at) {
        let mut cycle = path[start..].to_vec();
        cycle.push(at.to_string());
        return Some(cycle);
    }
    if done.contains(at) {
        return None;
    }
    path.push(at.to_string());
    for next in graph.get(at).into_iter().flatten() {
        if let Some(cycle) = cycle_from(graph, next, path, done) {
            return Some(cycle);
        }
    }
    path.pop();
    done.insert(at.to_string());
    None
}

#[test]
fn no_crate_has_an_import_cycle_among_its_modules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for src in SOURCES {
        let graph = imports(&root.join(src));
        if src == "crates/engine/src" {
            // The imports are read at all: a kit holds its game.
            assert!(graph["kit"].contains("game"), "{graph:?}");
        }
        let mut done = BTreeSet::new();
        for module in graph.keys() {
            let cycle = cycle_from(&graph, module, &mut Vec::new(), &mut done);
            assert!(cycle.is_none(), "{src}: {}", cycle.unwrap().join(" -> "));
        }
    }
}

#[test]
fn a_cycle_is_found() {
    let graph: BTreeMap<String, BTreeSet<String>> =
        [("kit", "game"), ("game", "i18n"), ("i18n", "kit")]
            .into_iter()
            .map(|(a, b)| (a.to_string(), BTreeSet::from([b.to_string()])))
            .collect();
    let cycle = cycle_from(&graph, "kit", &mut Vec::new(), &mut BTreeSet::new());
    assert_eq!(cycle.unwrap(), ["kit", "game", "i18n", "kit"]);
    assert_eq!(
        first_names("{game::{AnyGame, Side}, kit::Kit};"),
        ["game", "kit"]
    );
    assert_eq!(first_names("media::label_area(paper)"), ["media"]);
}
