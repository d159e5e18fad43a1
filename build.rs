//! The commit the program is built from, for `matchbox --version` (MATCHBOX_COMMIT): git's
//! HEAD in a clone; in a crates.io package, which has no .git, the commit cargo recorded
//! in `.cargo_vcs_info.json` as it packaged it; "unknown" when neither says.

use std::path::Path;
use std::process::Command;

/// What git says to `args`, run in this package's folder, or None when git is missing
/// or this is no clone.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_owned())
}

/// The commit cargo wrote into a package's `.cargo_vcs_info.json` (`"sha1": "..."`).
fn packaged_commit() -> Option<String> {
    let info =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".cargo_vcs_info.json"))
            .ok()?;
    let rest = &info[info.find("\"sha1\"")? + "\"sha1\"".len()..];
    let sha: String = rest
        .trim_start_matches([' ', ':', '"'])
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    (sha.len() >= 12).then(|| sha[..12].to_owned())
}

fn main() {
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(commit) => {
            // Built again when HEAD moves: HEAD itself, the branch it names, and
            // packed-refs (where the branch may be kept), each where git keeps it (a
            // worktree's HEAD is not in the main .git folder).
            let mut watched = vec!["HEAD".to_owned(), "packed-refs".to_owned()];
            watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
            for name in watched {
                if let Some(path) =
                    git(&["rev-parse", "--path-format=absolute", "--git-path", &name])
                    && Path::new(&path).exists()
                {
                    println!("cargo:rerun-if-changed={path}");
                }
            }
            commit
        }
        None => packaged_commit().unwrap_or_else(|| "unknown".to_owned()),
    };
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-env=MATCHBOX_COMMIT={commit}");
}
