//! The layers hold (docs/architecture.md): each crate uses only crates below it, the
//! engine, the print shop, the classroom and the browser's engine depend on nothing that
//! serves, parses a command line or handles signals (the engine on nothing that draws
//! either, the classroom and the browser's engine on no file system), and within every
//! crate no top-level module imports one that imports it back, even through others.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The workspace's members (Cargo.toml's `[workspace] members`), as folders.
fn members() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let list = manifest
        .split_once("\nmembers = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .expect("a workspace members list")
        .0;
    list.split(',')
        .map(|m| m.trim().trim_matches('"').to_string())
        .filter(|m| !m.is_empty())
        .collect()
}

/// The source folder of every crate of the workspace that has one (the binary's
/// included); the others (the templates, the benchmarks) are single files, so their
/// modules cannot import each other.
fn sources() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    members()
        .iter()
        .map(|m| match m.as_str() {
            "." => "src".to_string(),
            _ => format!("{m}/src"),
        })
        .filter(|s| root.join(s).is_dir())
        .collect()
}

/// The workspace's crates and the ones of them each may use.
const LAYERS: [(&str, &[&str]); 18] = [
    // The templates folder as a crate, so that the words' package carries them.
    ("matchbox-templates", &[]),
    // The engine's crates, bottom to top (docs/architecture.md).
    ("matchbox-words", &["matchbox-templates"]),
    ("matchbox-games", &["matchbox-words"]),
    (
        "matchbox-kit",
        // The templates for a test: every character they print is in the font.
        &["matchbox-templates", "matchbox-words", "matchbox-games"],
    ),
    (
        "matchbox-machine",
        &["matchbox-words", "matchbox-games", "matchbox-kit"],
    ),
    (
        "matchbox-solver",
        &[
            "matchbox-words",
            "matchbox-games",
            "matchbox-kit",
            "matchbox-machine",
        ],
    ),
    (
        "matchbox-simulate",
        &[
            "matchbox-words",
            "matchbox-games",
            "matchbox-kit",
            "matchbox-machine",
            "matchbox-solver",
        ],
    ),
    (
        "matchbox-savefile",
        &[
            "matchbox-words",
            "matchbox-games",
            "matchbox-kit",
            "matchbox-machine",
            "matchbox-simulate",
        ],
    ),
    // The one door to the crates above, under the paths the others name.
    (
        "matchbox-engine",
        &[
            "matchbox-words",
            "matchbox-games",
            "matchbox-kit",
            "matchbox-machine",
            "matchbox-solver",
            "matchbox-simulate",
            "matchbox-savefile",
        ],
    ),
    // The kit folder: the kit made in memory, written whole, with its report.
    (
        "matchbox-files",
        &["matchbox-engine", "matchbox-print", "matchbox-report"],
    ),
    ("matchbox-print", &["matchbox-engine"]),
    ("matchbox-classroom", &["matchbox-engine", "matchbox-print"]),
    // The command line's reports in the kit's words, and the game at the terminal.
    ("matchbox-report", &["matchbox-engine"]),
    ("matchbox-play", &["matchbox-engine", "matchbox-report"]),
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
            "matchbox-report",
            "matchbox-play",
            "matchbox-serve",
        ],
    ),
    (
        "matchbox-benches",
        &["matchbox-engine", "matchbox-print", "matchbox-serve"],
    ),
];

/// The one way back up, for tests only: the solver's figures are checked against sampled
/// machines, so its `[dev-dependencies]` name the simulation, which its
/// `[dependencies]` must not.
const TESTS_ONLY: [(&str, &str); 1] = [("matchbox-solver", "matchbox-simulate")];

/// What serves, parses a command line or handles signals: kept out of the crates of
/// [`KEPT_OUT`].
const FRONT_ENDS: [&str; 5] = ["axum", "tokio", "clap", "indicatif", "ctrlc"];

/// What a lower crate must not depend on, even indirectly (besides [`FRONT_ENDS`]).
const KEPT_OUT: [(&str, &[&str]); 6] = [
    (
        "matchbox-engine",
        &["krilla", "rustybuzz", "tiny-skia", "png"],
    ),
    ("matchbox-print", &[]),
    // The classroom's answers are the same over HTTP and in the browser's engine.
    ("matchbox-classroom", &["matchbox-files", "hyper"]),
    ("matchbox-web", &["matchbox-files", "hyper"]),
    // Words and a game at the terminal: nothing that draws or writes files.
    ("matchbox-report", &["matchbox-print", "matchbox-files"]),
    ("matchbox-play", &["matchbox-print", "matchbox-files"]),
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut manifests = BTreeMap::new();
    for member in members() {
        let manifest = std::fs::read_to_string(root.join(&member).join("Cargo.toml")).unwrap();
        let name = manifest
            .lines()
            .find_map(|l| l.strip_prefix("name = "))
            .map(|n| n.trim_matches('"').to_string())
            .expect("a package name");
        assert!(
            LAYERS.iter().any(|(layer, _)| *layer == name),
            "{name} ({member}) has no layer"
        );
        manifests.insert(name, manifest);
    }
    for (name, below) in LAYERS {
        let ours: BTreeSet<&str> = packages[name]
            .iter()
            .map(String::as_str)
            .filter(|d| d.starts_with("matchbox"))
            .collect();
        assert!(
            ours.iter()
                .all(|d| below.contains(d) || TESTS_ONLY.contains(&(name, *d))),
            "{name} uses {ours:?}"
        );
    }
    for (name, above) in TESTS_ONLY {
        let (uses, tests) = manifests[name]
            .split_once("[dev-dependencies]")
            .expect("dev-dependencies");
        let named = |part: &str| part.lines().any(|l| l.starts_with(&format!("{above} ")));
        assert!(!named(uses) && named(tests), "{name}: {above}");
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

/// `text` with its comments, strings and characters blanked out (lines kept), so that
/// what is left is code: a brace or a `crate::` in a message is no scope or import.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // Blanks `chars[from..to]`, keeping its line breaks.
    let blank = |out: &mut String, from: usize, to: usize| {
        out.extend(
            chars[from..to]
                .iter()
                .map(|&c| if c == '\n' { c } else { ' ' }),
        );
    };
    while i < chars.len() {
        let rest = &chars[i..];
        let end = if rest.starts_with(&['/', '/']) {
            rest.iter()
                .position(|&c| c == '\n')
                .map_or(chars.len(), |n| i + n)
        } else if rest.starts_with(&['/', '*']) {
            (i + 2..chars.len())
                .find(|&j| chars[j - 1..].starts_with(&['*', '/']))
                .map_or(chars.len(), |j| j + 1)
        } else if rest[0] == 'r' && raw_hashes(rest).is_some() {
            // A raw string: r"..." or r#"..."#, closed by a quote and as many hashes.
            let hashes = raw_hashes(rest).unwrap_or_default();
            let close: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let open = i + 2 + hashes;
            (open..chars.len())
                .find(|&j| chars[j..].starts_with(&close))
                .map_or(chars.len(), |j| j + close.len())
        } else if rest[0] == '"' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            j + 1
        } else if rest[0] == '\'' && (rest.get(1) == Some(&'\\') || rest.get(2) == Some(&'\'')) {
            // A character ('x', '\n', '\u{7b}'); a lifetime ('a) has no closing quote.
            (i + 2..chars.len())
                .find(|&j| chars[j] == '\'')
                .map_or(chars.len(), |j| j + 1)
        } else {
            out.push(rest[0]);
            i += 1;
            continue;
        };
        let end = end.min(chars.len());
        blank(&mut out, i, end);
        i = end;
    }
    out
}

/// The hashes of a raw string that `rest` starts (after its `r`), if it starts one
/// (`r#type` is a raw name, not a string).
fn raw_hashes(rest: &[char]) -> Option<usize> {
    let hashes = rest[1..].iter().take_while(|&&c| c == '#').count();
    (rest.get(1 + hashes) == Some(&'"')).then_some(hashes)
}

/// The module path of a source file: `a.rs` and `a/mod.rs` are `[a]`, `a/b.rs` is
/// `[a, b]`, `lib.rs` and `main.rs` are the crate's root, `[]`.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let mut path: Vec<String> = file
        .strip_prefix(src)
        .unwrap()
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if path.last().is_some_and(|m| m == "mod") || path == ["lib"] || path == ["main"] {
        path.pop();
    }
    path
}

/// The crate's top-level modules that the paths in `code` reach, read from inside the
/// module `at`: `crate::a::b` reaches `a`; `super::` climbs from `at` and `self::` stays
/// (both as often as written, and both from inside an inline `mod x { }` too), so that
/// `super::b` in `a.rs` reaches `b` while in `a/c.rs` it stays in `a`.
fn reached(code: &str, at: &[String]) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    // The inline modules open around the text read so far, with the brace depth each
    // opened at.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth: usize = 0;
    let starts_path = |before: Option<char>| {
        before.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'))
    };
    for (i, c) in code.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
            }
            _ => {}
        }
        let before = code[..i].chars().next_back();
        if !starts_path(before) {
            continue;
        }
        let rest = &code[i..];
        if let Some(name) = rest.strip_prefix("mod ") {
            let name = name.trim_start();
            let ident: String = name
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if name[ident.len()..].trim_start().starts_with('{') {
                inline.push((ident, depth));
            }
            continue;
        }
        let mut here: Vec<String> = at
            .iter()
            .cloned()
            .chain(inline.iter().map(|(m, _)| m.clone()))
            .collect();
        let mut path = rest;
        let mut relative = false;
        if let Some(tail) = path.strip_prefix("crate::") {
            here.clear();
            path = tail;
        } else {
            loop {
                if let Some(tail) = path.strip_prefix("super::") {
                    here.pop();
                    path = tail;
                } else if let Some(tail) = path.strip_prefix("self::") {
                    path = tail;
                } else {
                    break;
                }
                relative = true;
            }
            if !relative {
                continue;
            }
        }
        match here.first() {
            Some(top) => {
                found.insert(top.clone());
            }
            None => found.extend(first_names(path)),
        }
    }
    found
}

/// A crate's top-level modules and the ones each imports, outside test code (a file's
/// text from its first `#[cfg(test)]` on), comments and strings.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let paths: Vec<Vec<String>> = files.iter().map(|f| module_path(src, f)).collect();
    let modules: BTreeSet<String> = paths.iter().filter_map(|p| p.first().cloned()).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, at) in files.iter().zip(&paths) {
        let Some(from) = at.first() else {
            // The crate's root declares the modules: it is above them all.
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        let code = code_only(text.split("#[cfg(test)]").next().unwrap_or_default());
        let edges = graph.entry(from.clone()).or_default();
        edges.extend(
            reached(&code, at)
                .into_iter()
                .filter(|m| m != from && modules.contains(m)),
        );
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
    let sources = sources();
    for crate_folder in [
        "src",
        "crates/machine/src",
        "crates/solver/src",
        "crates/classroom/src",
        "crates/web/src",
    ] {
        assert!(sources.iter().any(|s| s == crate_folder), "{sources:?}");
    }
    for src in &sources {
        let graph = imports(&root.join(src));
        match src.as_str() {
            // The imports are read at all: the loss check reads the compiled machine
            // (`super::`), the teacher's figures the chain's (`super::`), the
            // classroom's table draws its board (`super::`).
            "crates/machine/src" => assert!(graph["loss"].contains("compiled"), "{graph:?}"),
            "crates/solver/src" => assert!(graph["teaching"].contains("chain"), "{graph:?}"),
            "crates/classroom/src" => assert!(graph["table"].contains("board"), "{graph:?}"),
            _ => {}
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

#[test]
fn every_way_of_naming_a_module_is_read() {
    let at = |path: &[&str]| -> Vec<String> { path.iter().map(|m| m.to_string()).collect() };
    let code = |text: &str| code_only(text);
    let reached = |text: &str, path: &[&str]| -> Vec<String> {
        reached(&code(text), &at(path)).into_iter().collect()
    };
    // From a top-level module, `super::` is the crate's root.
    assert_eq!(
        reached(
            "use super::{board::{self, Spot}, Store};\nuse super::train::Run;",
            &["table"]
        ),
        ["Store", "board", "train"]
    );
    assert_eq!(
        reached("let x = super::setup(&game);", &["settings"]),
        ["setup"]
    );
    // From a module's own files, `super::` stays in it unless it climbs to the root.
    assert_eq!(
        reached("use super::lines::Lines;", &["simulate", "exact"]),
        ["simulate"]
    );
    assert_eq!(
        reached("use super::super::kit::Kit;", &["simulate", "exact"]),
        ["kit"]
    );
    assert_eq!(reached("use self::inner::X;", &["kit"]), ["kit"]);
    assert_eq!(
        reached("use crate::{game::Side, kit};", &["print"]),
        ["game", "kit"]
    );
    // An inline module is one level more, until its brace closes.
    assert_eq!(
        reached(
            "mod inner {\n    use super::super::game;\n}\nuse super::kit;",
            &["a"]
        ),
        ["game", "kit"]
    );
    // Names in comments and strings, and paths that only end in `crate::`, are none.
    assert!(
        reached(
            "// use super::kit;\nlet s = \"crate::game {\";\nlet c = '{'; use $crate::x;",
            &["a"]
        ) == ["x"]
    );
    assert!(reached("let r = r#\"use super::kit\"#; other::crate::x;", &["a"]).is_empty());
    assert_eq!(
        module_path(Path::new("s"), Path::new("s/kit/mod.rs")),
        ["kit"]
    );
    assert!(module_path(Path::new("s"), Path::new("s/lib.rs")).is_empty());
}
