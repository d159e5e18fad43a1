//! Finds the template files of the language folders, for the build script (which
//! compiles them in) and for a run that reads them from a folder instead.

use std::path::{Path, PathBuf};

/// Every template file under `root`'s language folders, as (its path under `root` with
/// `/` between names, its path on disk), sorted by the first so that it can be searched.
pub fn template_paths(root: &Path) -> std::io::Result<Vec<(String, PathBuf)>> {
    let mut files = Vec::new();
    for language in std::fs::read_dir(root)? {
        let path = language?.path();
        if path.is_dir() {
            collect(&path, &mut files)?;
        }
    }
    let mut named = Vec::with_capacity(files.len());
    for path in files {
        let name = path
            .strip_prefix(root)
            .ok()
            .and_then(Path::to_str)
            .ok_or_else(|| std::io::Error::other(format!("{}: not a UTF-8 path", path.display())))?
            .replace('\\', "/");
        named.push((name, path));
    }
    named.sort();
    Ok(named)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        entries.push(entry?.path());
    }
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, out)?;
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("md" | "yaml")
        ) {
            out.push(path);
        }
    }
    Ok(())
}
