//! The project's addresses have one definition, `repository` in Cargo.toml's
//! [workspace.package] (cargo hands it to this test as CARGO_PKG_REPOSITORY); every file
//! that names the repository or the site on GitHub Pages must agree with it, so that the
//! address set before the first tag (docs/release.md) is the one a teacher is sent to.
//! And the README's download table names exactly the files the release workflow uploads.

use std::fs;
use std::path::{Path, PathBuf};

const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");
const HOMEPAGE: &str = env!("CARGO_PKG_HOMEPAGE");

/// The repository's owner and name, from `https://github.com/OWNER/NAME`.
fn owner_and_name() -> (&'static str, &'static str) {
    let path = REPOSITORY
        .strip_prefix("https://github.com/")
        .unwrap_or_else(|| {
            panic!("repository {REPOSITORY:?} is not https://github.com/OWNER/NAME")
        });
    let (owner, name) = path.split_once('/').unwrap_or_else(|| {
        panic!("repository {REPOSITORY:?} is not https://github.com/OWNER/NAME")
    });
    assert!(
        !owner.is_empty() && !name.is_empty() && !name.contains('/') && !name.ends_with(".git"),
        "repository {REPOSITORY:?} is not https://github.com/OWNER/NAME"
    );
    (owner, name)
}

/// The site's address on GitHub Pages, where pages.yml publishes it: a project site is
/// served at https://OWNER.github.io/NAME/ (GitHub writes the owner in lower case).
fn site() -> String {
    let (owner, name) = owner_and_name();
    format!("https://{}.github.io/{name}/", owner.to_ascii_lowercase())
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(relative: &str) -> String {
    fs::read_to_string(root().join(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// The project's own text files: what a person writes, not what is built, vendored or
/// locked (Cargo.lock names the crates.io index on GitHub, which is no address of ours).
fn text_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a readable folder").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if !matches!(
                name,
                ".git" | "target" | "out" | "dist" | "node_modules" | "axe"
            ) {
                text_files(&path, out);
            }
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some(
                "md" | "toml"
                    | "yml"
                    | "yaml"
                    | "html"
                    | "js"
                    | "json"
                    | "webmanifest"
                    | "rs"
                    | "sh"
            )
        ) {
            out.push(path);
        }
    }
}

/// Every web address in `text` on github.com or github.io that names matchbox (in its
/// owner or its name), cut where Markdown, HTML or TOML would end it.
fn matchbox_addresses(text: &str) -> Vec<&str> {
    text.split(|c: char| c.is_whitespace() || "()<>[]\"'`,".contains(c))
        .filter_map(|token| token.find("http").map(|start| &token[start..]))
        .filter(|url| {
            (url.contains("github.com/") || url.contains(".github.io"))
                && url.to_ascii_lowercase().contains("matchbox")
        })
        .collect()
}

#[test]
fn the_homepage_is_the_repositorys_site_on_github_pages() {
    assert_eq!(
        HOMEPAGE,
        site(),
        "homepage in [workspace.package] must be the site pages.yml publishes for {REPOSITORY}"
    );
}

#[test]
fn every_file_names_the_repository_and_the_site_as_cargo_toml_defines_them() {
    let mut files = Vec::new();
    text_files(root(), &mut files);
    files.sort();
    let site = site();
    let mut stale = Vec::new();
    for path in &files {
        let Ok(text) = fs::read_to_string(path) else {
            continue;
        };
        for url in matchbox_addresses(&text) {
            let ours = url == REPOSITORY
                || url.starts_with(&format!("{REPOSITORY}/"))
                || url.starts_with(&site);
            if !ours {
                stale.push(format!(
                    "{}: {url}",
                    path.strip_prefix(root()).unwrap().display()
                ));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "these addresses are not under repository {REPOSITORY} or its site {site} \
         (Cargo.toml's [workspace.package] is the one definition; docs/release.md):\n{}",
        stale.join("\n")
    );
}

#[test]
fn the_readme_names_the_site_and_the_latest_release_once_each() {
    let readme = read("README.md");
    let addresses = matchbox_addresses(&readme);
    let site = site();
    let latest = format!("{REPOSITORY}/releases/latest");
    assert_eq!(
        addresses.iter().filter(|url| **url == site).count(),
        1,
        "README.md names the site {site} once, in its first steps: {addresses:?}"
    );
    assert_eq!(
        addresses.iter().filter(|url| **url == latest).count(),
        1,
        "README.md names the latest release {latest} once, in its first steps: {addresses:?}"
    );
}

#[test]
fn the_changelogs_links_are_the_repositorys_own_pages() {
    let changelog = read("CHANGELOG.md");
    let links: Vec<&str> = changelog
        .lines()
        .filter(|line| line.starts_with('[') && line.contains("]: "))
        .collect();
    assert!(!links.is_empty(), "CHANGELOG.md has no version links");
    for line in links {
        let url = &line[line.find("]: ").unwrap() + 3..];
        assert!(
            url.starts_with(&format!("{REPOSITORY}/compare/v"))
                || url.starts_with(&format!("{REPOSITORY}/releases/tag/v"))
                || url == format!("{REPOSITORY}/commits/main"),
            "CHANGELOG.md: {line:?} is not a compare, tag or commits page of {REPOSITORY}"
        );
    }
}

#[test]
fn the_readmes_download_table_names_each_file_the_release_uploads() {
    let workflow = read(".github/workflows/release.yml");
    // upload-rust-binary-action names the archive from this template, a .zip on Windows
    // and a .tar.gz elsewhere (its defaults).
    assert!(
        workflow.contains("archive: $bin-$tag-$target"),
        "release.yml's archive name changed: the README's table names files by it"
    );
    let targets: Vec<&str> = workflow
        .lines()
        .filter_map(|line| line.trim().strip_prefix("- target: "))
        .map(str::trim)
        .collect();
    assert!(targets.len() >= 5, "release.yml's targets: {targets:?}");
    let readme = read("README.md");
    let mut in_readme: Vec<&str> = readme
        .split('`')
        .filter(|piece| piece.starts_with("matchbox-vX.Y.Z-") && !piece.contains(' '))
        .collect();
    let mut expected: Vec<String> = targets
        .iter()
        .map(|target| {
            let archive = if target.contains("windows") {
                "zip"
            } else {
                "tar.gz"
            };
            format!("matchbox-vX.Y.Z-{target}.{archive}")
        })
        .collect();
    in_readme.sort();
    expected.sort();
    assert_eq!(
        in_readme, expected,
        "README.md's download table and release.yml's targets differ"
    );
}
